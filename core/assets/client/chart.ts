import { CategoryScale, Chart, Filler, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';

export interface Series {
  labels: string[];
  datasets: Record<string, number[]>;
}

const COLORS: Record<string, string> = { visitors: '#2b5fd9', pageviews: '#00a38a', sessions: '#c26a00' };
const LABELS: Record<string, string> = { visitors: 'Visitors', pageviews: 'Pageviews', sessions: 'Sessions' };

/** The visitors/pageviews line chart; one instance per canvas, updated in place. */
export class TrafficChart {
  private chart: Chart<'line'> | null = null;

  constructor(private readonly canvas: HTMLCanvasElement) {
    // Registered here rather than on import, so a bundle that never draws a chart leaves chart.js out.
    Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Tooltip, Legend);
  }

  show(series: Series): void {
    const datasets = Object.entries(series.datasets).map(([metric, values]) => ({
      label: LABELS[metric] ?? metric,
      data: values,
      borderColor: COLORS[metric] ?? '#666',
      backgroundColor: `${COLORS[metric] ?? '#666666'}22`,
      fill: metric === 'visitors',
      tension: 0.25,
      pointRadius: values.length > 60 ? 0 : 3,
    }));
    if (this.chart) {
      this.chart.data.labels = series.labels;
      this.chart.data.datasets = datasets;
      this.chart.update();
      return;
    }
    this.chart = new Chart(this.canvas, {
      type: 'line',
      data: { labels: series.labels, datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 8 } } },
        plugins: { legend: { position: 'bottom' } },
      },
    });
  }
}
