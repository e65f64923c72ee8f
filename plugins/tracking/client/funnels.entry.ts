import { ApiError, clear, DataPage, el, formatNumber, notice, type Section } from '../../../core/assets/client';
import type { FunnelStep, FunnelStepFigures } from '../funnels/shapes';

type Step = FunnelStep;
type StepFigures = FunnelStepFigures;

interface Funnel {
  ID: number;
  name: string;
  steps: Step[];
}

interface Goal {
  ID: number;
  title: string;
}

const NO_FUNNELS = 'No funnels yet. A funnel follows visitors through pages and goals in order, for example from the home page to pricing to a sign-up.';

/** The steps of the textarea: a line starting with / or * is a page pattern, any other line the title of a goal. */
function readSteps(text: string, goals: readonly Goal[]): { steps: Step[]; unknown: string[] } {
  const steps: Step[] = [];
  const unknown: string[] = [];
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    if (line.startsWith('/') || line.startsWith('*')) {
      steps.push({ page: line });
      continue;
    }
    const goal = goals.find((g) => g.title.toLowerCase() === line.toLowerCase());
    if (goal) steps.push({ goal: goal.ID });
    else unknown.push(line);
  }
  return { steps, unknown };
}

function renderSteps(target: Element, steps: readonly StepFigures[]): void {
  const items = steps.map((s) =>
    el(
      'li',
      { class: 'funnel-step', 'data-step': String(s.step) },
      el('span', { class: 'step-label' }, `${s.step}. ${s.label}`),
      el('strong', { class: 'step-visitors' }, `${formatNumber(s.visitors)} visitor${s.visitors === 1 ? '' : 's'} · ${s.conversion_rate}%`),
      el('span', { class: 'step-bar', 'aria-hidden': 'true' }, el('span', { style: `width: ${Math.min(100, s.conversion_rate)}%` })),
      el('span', { class: 'step-drop muted' }, s.step === 1 ? 'Entered the funnel' : `Drop-off ${formatNumber(s.drop_off)} (${s.drop_off_rate}%) from the step before`),
    ),
  );
  clear(target, el('ol', { class: 'funnel-steps' }, ...items));
}

/** The funnels page: the chosen funnel's steps for the period and filters, and (for managers) adding and deleting funnels. */
function start(root: HTMLElement): void {
  let funnels: Funnel[] = [];
  const choice = root.querySelector<HTMLSelectElement>('[data-funnel-choice]')!;
  const chosen = (page: DataPage) => funnels.find((f) => String(f.ID) === (page.option('funnel') ?? '')) ?? funnels[0];

  const section: Section<StepFigures[] | null> = {
    selector: '[data-funnel]',
    fetch: async (page) => {
      const funnel = chosen(page);
      if (!funnel) return null;
      return (await page.api.get<{ steps: StepFigures[] }>('/data/funnel', page.params({ funnel: funnel.ID }))).steps;
    },
    render: (target, steps) => (steps ? renderSteps(target, steps) : clear(target, notice('empty', NO_FUNNELS))),
  };
  const page = new DataPage(root, [section]);
  // Back to the dashboard on the same period and filters.
  const back = root.querySelector<HTMLAnchorElement>('[data-back]')!;
  root.addEventListener('svc:view', () => {
    const query = new URLSearchParams(location.search);
    query.delete('funnel');
    back.search = query.toString();
  });

  const showChoice = () => {
    const current = chosen(page);
    clear(choice, ...funnels.map((f) => el('option', { value: String(f.ID) }, f.name)));
    if (current) choice.value = String(current.ID);
    choice.disabled = funnels.length === 0;
    root.querySelector('[data-funnel-delete]')?.toggleAttribute('hidden', funnels.length === 0);
  };
  const reload = async () => {
    funnels = await page.api.get<Funnel[]>('/funnels');
    showChoice();
    await page.refresh(section);
  };
  choice.addEventListener('change', () => {
    page.setOption('funnel', choice.value);
    void page.refresh(section);
  });

  if (root.hasAttribute('data-can-manage')) manage(root, page, reload, () => chosen(page));
  void page.api.get<Funnel[]>('/funnels').then(
    (list) => {
      funnels = list;
      showChoice();
      return page.load();
    },
    (err: unknown) => clear(root.querySelector('[data-funnel]')!, notice('error', err instanceof Error ? err.message : 'Loading the funnels failed.')),
  );
}

/** The add form and the delete button of managers. */
function manage(root: HTMLElement, page: DataPage, reload: () => Promise<void>, current: () => Funnel | undefined): void {
  const form = root.querySelector<HTMLFormElement>('[data-funnel-form]')!;
  const message = form.querySelector('[data-funnel-message]')!;
  let goals: Goal[] = [];
  void page.api.get<Goal[]>('/goals').then((list) => {
    goals = list;
    form.querySelector('[data-goal-titles]')!.textContent = goals.length ? `Goals you can use: ${goals.map((g) => g.title).join(', ')}.` : 'No goals yet: steps can be pages only.';
  });

  const remove = el('button', { type: 'button', class: 'secondary', 'data-funnel-delete': '' }, 'Delete');
  root.querySelector('[data-funnel-choice]')!.closest('header')!.append(remove);
  remove.addEventListener('click', () => {
    const funnel = current();
    if (!funnel || !confirm(`Delete the funnel "${funnel.name}"?`)) return;
    void page.api.send('DELETE', `/funnels/${funnel.ID}`).then(() => {
      page.setOption('funnel', null);
      return reload();
    });
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const { steps, unknown } = readSteps(String(data.get('steps') ?? ''), goals);
    if (unknown.length) {
      message.textContent = `Not a page path or a goal title: ${unknown.join(', ')}. Page paths start with / (or are *).`;
      return;
    }
    const name = String(data.get('name') ?? '');
    void (async () => {
      try {
        const funnel = await page.api.send<Funnel>('POST', '/funnels', { name, steps });
        form.reset();
        message.textContent = `Funnel "${name}" added.`;
        page.setOption('funnel', String(funnel.ID));
        await reload();
      } catch (err) {
        message.textContent =
          err instanceof ApiError && err.status === 400 ? `Nothing was added: ${err.problems().map((p) => `${p.field.replace(/^steps\.(\d+).*/, (_m, i: string) => `step ${Number(i) + 1}`)} ${p.problem}`).join('; ')}.` : err instanceof Error ? err.message : 'That did not work.';
      }
    })();
  });
}

const root = document.getElementById('svc-funnels');
if (root) start(root);
