import { ApiError, clear, createApi, el, notice, tableBox } from '../../../core/assets/client';

interface Goal {
  ID: number;
  title: string;
  type: string;
  status: string;
  url: string;
  selector: string;
  hook: string;
  conversion_metric: string;
}

const TYPES: Record<string, string> = { clicks: 'Click', views: 'In view', visits: 'Page visit', hook: 'Hook' };
/** How a refused field is named next to it. */
const FIELD_NAMES: Record<string, string> = { title: 'The title', type: 'The type', url: 'The page', selector: 'The selector', hook: 'The hook name', conversion_metric: 'The count' };

/** Shows every refused field next to its form field; answers the problems no field of the form shows. */
function showProblems(form: HTMLFormElement, problems: Array<{ field: string; problem: string }>): string[] {
  for (const old of form.querySelectorAll('.field-error')) old.remove();
  for (const box of form.querySelectorAll('.field.has-error')) box.classList.remove('has-error');
  const rest: string[] = [];
  for (const { field, problem } of problems) {
    const box = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
    const text = `${FIELD_NAMES[field] ?? field} ${problem}.`;
    if (!box) {
      rest.push(text);
      continue;
    }
    box.classList.add('has-error');
    box.append(el('p', { class: 'field-error', role: 'alert' }, text));
  }
  return rest;
}

/** Goal management against the tracking plugin's `{api_base}/goals` CRUD. */
function start(root: HTMLElement): void {
  const api = createApi();
  const list = root.querySelector('[data-goal-list]')!;
  const form = root.querySelector<HTMLFormElement>('[data-goal-form]')!;
  const message = root.querySelector('[data-goal-message]')!;

  const target = (g: Goal) => (g.type === 'hook' ? g.hook : g.type === 'visits' ? g.url : `${g.selector} on ${g.url}`);

  const refresh = async () => {
    try {
      const goals = await api.get<Goal[]>('/goals');
      if (goals.length === 0) {
        clear(list, notice('empty', 'No goals yet. Add one below: for example the clicks on your sign-up button.'));
        return;
      }
      const rows = goals.map((g) => {
        const toggle = el('button', { type: 'button', class: 'secondary' }, g.status === 'active' ? 'Deactivate' : 'Activate');
        toggle.addEventListener('click', () => act(() => api.send('PATCH', `/goals/${g.ID}`, { status: g.status === 'active' ? 'inactive' : 'active' })));
        const remove = el('button', { type: 'button', class: 'secondary' }, 'Delete');
        remove.addEventListener('click', () => {
          if (confirm(`Delete the goal "${g.title}"? Its recorded conversions are kept.`)) void act(() => api.send('DELETE', `/goals/${g.ID}`));
        });
        const cell = (label: string, ...content: Array<Node | string>) => el('td', { 'data-label': label }, ...content);
        return el('tr', {}, cell('Title', g.title), cell('Type', TYPES[g.type] ?? g.type), cell('Target', el('span', { class: 'truncate', title: target(g) }, target(g))), cell('Status', g.status), el('td', {}, el('span', { class: 'goal-actions' }, toggle, remove)));
      });
      const head = el('tr', {}, ...['Title', 'Type', 'Target', 'Status', ''].map((h) => el('th', { scope: 'col' }, h)));
      clear(list, tableBox(head, rows, 'stack'));
    } catch (err) {
      clear(list, notice('error', err instanceof Error ? err.message : 'Loading the goals failed.'));
    }
  };

  const act = async (work: () => Promise<unknown>) => {
    message.textContent = '';
    try {
      await work();
    } catch (err) {
      message.textContent = err instanceof Error ? err.message : 'That did not work.';
    }
    await refresh();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = {
      title: String(data.get('title') ?? ''),
      type: String(data.get('type') ?? 'clicks'),
      url: String(data.get('url') ?? '*'),
      selector: String(data.get('selector') ?? ''),
      hook: String(data.get('hook') ?? ''),
      conversion_metric: String(data.get('conversion_metric') ?? 'visitors'),
      status: data.get('active') ? 'active' : 'inactive',
    };
    void act(async () => {
      try {
        await api.send('POST', '/goals', body);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 400) throw err;
        throw new Error(showProblems(form, err.problems()).join(' ') || 'Nothing was added: fix what is marked above.');
      }
      showProblems(form, []);
      form.reset();
      message.textContent = `Goal "${body.title}" added.`;
    });
  });
  clear(list, notice('loading', 'Loading…'));
  void refresh();
}

const root = document.getElementById('svc-goals');
if (root) start(root);
