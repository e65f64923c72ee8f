import { ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, Legend, LinearScale, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, DoughnutController, ArcElement, CategoryScale, LinearScale, Tooltip, Legend);

const BLUE = '#2b5fd9';
const GREEN = '#00a38a';
const PALETTE = [BLUE, GREEN, '#c26a00', '#8c3dc2', '#b32d2e', '#646970', '#1d8ecf', '#d1a000'];

/** A bar chart drawn once per canvas and updated in place. */
export class BarChart {
  private chart: Chart<'bar'> | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly options: { horizontal?: boolean; stacked?: boolean },
  ) {}

  show(labels: string[], series: Array<{ label: string; values: number[] }>): void {
    const datasets = series.map((s, i) => ({ label: s.label, data: s.values, backgroundColor: i === 0 ? BLUE : GREEN, borderRadius: 3 }));
    if (this.chart) {
      this.chart.data.labels = labels;
      this.chart.data.datasets = datasets;
      this.chart.update();
      return;
    }
    const stacked = Boolean(this.options.stacked);
    this.chart = new Chart(this.canvas, {
      type: 'bar',
      data: { labels, datasets },
      options: {
        indexAxis: this.options.horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { stacked, beginAtZero: true }, y: { stacked, beginAtZero: true } },
        plugins: { legend: { display: series.length > 1, position: 'bottom' } },
      },
    });
  }
}

/** A doughnut of shares. */
export class DoughnutChart {
  private chart: Chart<'doughnut'> | null = null;

  constructor(private readonly canvas: HTMLCanvasElement) {}

  show(labels: string[], values: number[]): void {
    const dataset = { data: values, backgroundColor: labels.map((_, i) => PALETTE[i % PALETTE.length]!) };
    if (this.chart) {
      this.chart.data.labels = labels;
      this.chart.data.datasets = [dataset];
      this.chart.update();
      return;
    }
    this.chart = new Chart(this.canvas, {
      type: 'doughnut',
      data: { labels, datasets: [dataset] },
      options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { position: 'right' } } },
    });
  }
}
