import { CategoryScale, Chart, Filler, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';
import { type Column, formatValue } from './widgets';

export interface Series {
  labels: string[];
  datasets: Record<string, number[]>;
}

/** A second series drawn lighter and dashed over the first, point for point (the previous period…). */
export interface Overlay {
  /** Added to each line's name in the legend: `Visitors (2026-01-01 – 2026-01-31)`. */
  label: string;
  datasets: Record<string, number[]>;
}

const COLORS: Record<string, string> = {
  visitors: '#2b5fd9',
  pageviews: '#00a38a',
  sessions: '#c26a00',
  bounce_rate: '#b32d2e',
  avg_time_on_page: '#7a4fd0',
  conversions: '#007a3d',
};
const LABELS: Record<string, string> = {
  visitors: 'Visitors',
  pageviews: 'Pageviews',
  sessions: 'Sessions',
  bounce_rate: 'Bounce rate',
  avg_time_on_page: 'Time on page',
  conversions: 'Conversions',
};

function line(metric: string, values: number[], label: string, overlay: boolean) {
  const color = COLORS[metric] ?? '#666666';
  return {
    label,
    data: values,
    borderColor: overlay ? `${color}80` : color,
    backgroundColor: `${color}22`,
    borderDash: overlay ? [6, 4] : [],
    fill: !overlay && metric === 'visitors',
    tension: 0.25,
    pointRadius: overlay || values.length > 60 ? 0 : 3,
  };
}

/**
 * The traffic line chart; one instance per canvas, updated in place. The
 * canvas's `data-series` holds the lines drawn (label and values), so tests
 * and tools read what the chart shows.
 */
export class TrafficChart {
  private chart: Chart<'line'> | null = null;
  private format: Column['format'] = 'number';

  constructor(private readonly canvas: HTMLCanvasElement) {
    // Registered here rather than on import, so a bundle that never draws a chart leaves chart.js out.
    Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Tooltip, Legend);
  }

  /** Draws `series` (and `overlay`), writing values on the axis and in tooltips as `format` does (plain numbers by default). */
  show(series: Series, overlay?: Overlay, format: Column['format'] = 'number'): void {
    this.format = format;
    const name = (metric: string) => LABELS[metric] ?? metric;
    const datasets = [
      ...Object.entries(series.datasets).map(([metric, values]) => line(metric, values, name(metric), false)),
      ...Object.entries(overlay?.datasets ?? {}).map(([metric, values]) =>
        line(metric, values.slice(0, series.labels.length), `${name(metric)} (${overlay!.label})`, true),
      ),
    ];
    if (this.chart) {
      this.chart.data.labels = series.labels;
      this.chart.data.datasets = datasets;
      this.chart.update();
    } else {
      this.chart = new Chart(this.canvas, {
        type: 'line',
        data: { labels: series.labels, datasets },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          interaction: { mode: 'index', intersect: false },
          scales: {
            y: { beginAtZero: true, ticks: { precision: 0, callback: (value) => formatValue(value, this.format) } },
            x: { ticks: { maxRotation: 0, autoSkip: true, autoSkipPadding: 12, maxTicksLimit: 8 } },
          },
          plugins: {
            legend: { position: 'bottom' },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatValue(item.parsed.y, this.format)}` } },
          },
        },
      });
    }
    this.canvas.dataset.series = JSON.stringify(this.chart.data.datasets.map((d) => ({ label: d.label, data: d.data })));
  }
}
