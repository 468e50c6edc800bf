import { useId } from 'react';

export interface Bar {
  readonly key: string;
  readonly label: string;
  readonly value: number;
  /** The value as the table prints it, e.g. "75 %". */
  readonly display: string;
}

// Charts are drawn no wider than a phone's content column (320 px) and never shown narrower (CSS min-width),
// so their 12-unit labels are never scaled below 12 px.
const BAR_HEIGHT = 22;
const BAR_GAP = 8;
const LABEL_WIDTH = 108;
const VALUE_WIDTH = 48;
const BAR_CHART_WIDTH = 320;

/** Horizontal bars, one per strategy, on a scale from 0 to `max`; the same numbers are in a table beside it. */
export function BarChart({ title, bars, max }: { title: string; bars: readonly Bar[]; max: number }) {
  const titleId = useId();
  const descId = useId();
  const plotWidth = BAR_CHART_WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const height = bars.length * (BAR_HEIGHT + BAR_GAP) + BAR_GAP;
  const scale = (value: number) => (max > 0 ? (Math.max(0, value) / max) * plotWidth : 0);
  return (
    <figure className="chart">
      <svg
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
        viewBox={`0 0 ${BAR_CHART_WIDTH} ${height}`}
        className="bar-chart"
      >
        <title id={titleId}>{title}</title>
        <desc id={descId}>{bars.map((bar) => `${bar.label}: ${bar.display}`).join('; ')}</desc>
        <line className="axis" x1={LABEL_WIDTH} x2={LABEL_WIDTH} y1={0} y2={height} />
        {bars.map((bar, index) => {
          const y = BAR_GAP + index * (BAR_HEIGHT + BAR_GAP);
          const width = scale(bar.value);
          return (
            <g key={bar.key}>
              <text
                x={LABEL_WIDTH - 6}
                y={y + BAR_HEIGHT / 2}
                textAnchor="end"
                dominantBaseline="central"
                className="chart-label"
              >
                {bar.label}
              </text>
              <rect x={LABEL_WIDTH} y={y} width={width} height={BAR_HEIGHT} className={`bar series-${bar.key}`} />
              <text
                x={LABEL_WIDTH + width + 6}
                y={y + BAR_HEIGHT / 2}
                dominantBaseline="central"
                className="chart-value"
              >
                {bar.display}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}

export interface Series {
  readonly key: string;
  readonly label: string;
  /** One value per x position; null where the metric is undefined (no point drawn). */
  readonly values: readonly (number | null)[];
}

const LINE_WIDTH = 320;
const LINE_HEIGHT = 220;
const MARGIN = { left: 40, right: 16, top: 12, bottom: 40 };
// Keeps the first and last points (and their size labels) clear of the y labels and the edge.
const INSET = 22;
const MARKERS = ['circle', 'square', 'triangle', 'diamond'] as const;
type Marker = (typeof MARKERS)[number];

function MarkerShape({ marker, x, y, size }: { marker: Marker; x: number; y: number; size: number }) {
  switch (marker) {
    case 'circle':
      return <circle cx={x} cy={y} r={size} />;
    case 'square':
      return <rect x={x - size} y={y - size} width={size * 2} height={size * 2} />;
    case 'triangle':
      return (
        <polygon
          points={`${x},${y - size * 1.2} ${x + size * 1.1},${y + size * 0.8} ${x - size * 1.1},${y + size * 0.8}`}
        />
      );
    case 'diamond':
      return (
        <polygon
          points={`${x},${y - size * 1.3} ${x + size * 1.3},${y} ${x},${y + size * 1.3} ${x - size * 1.3},${y}`}
        />
      );
  }
}

const markerOf = (index: number): Marker => MARKERS[index % MARKERS.length] ?? 'circle';

/**
 * One line per strategy against corpus size on a logarithmic x axis. Lines that coincide stay
 * distinguishable by their hollow markers of different shapes and sizes, drawn largest first.
 */
export function LineChart({
  title,
  xValues,
  xFormat,
  series,
  yMax,
  yFormat,
}: {
  title: string;
  xValues: readonly number[];
  xFormat: (x: number) => string;
  series: readonly Series[];
  yMax: number;
  yFormat: (y: number) => string;
}) {
  const titleId = useId();
  const descId = useId();
  const plotWidth = LINE_WIDTH - MARGIN.left - MARGIN.right;
  const pointsWidth = plotWidth - 2 * INSET;
  const plotHeight = LINE_HEIGHT - MARGIN.top - MARGIN.bottom;
  const logs = xValues.map((x) => Math.log10(x));
  // Folded, not spread into Math.min/max: a spread argument list overflows the stack past about 100,000 values.
  const minLog = logs.reduce((least, value) => Math.min(least, value), Number.POSITIVE_INFINITY);
  const maxLog = logs.reduce((most, value) => Math.max(most, value), Number.NEGATIVE_INFINITY);
  const xAt = (index: number) =>
    MARGIN.left +
    INSET +
    (maxLog === minLog ? pointsWidth / 2 : (((logs[index] ?? minLog) - minLog) / (maxLog - minLog)) * pointsWidth);
  const yAt = (value: number) => MARGIN.top + plotHeight - (yMax > 0 ? (Math.min(value, yMax) / yMax) * plotHeight : 0);
  const yTicks = [0, yMax / 2, yMax];
  const description = series
    .map(
      (line) =>
        `${line.label}: ${line.values.map((value, index) => `${xFormat(xValues[index] ?? 0)} → ${value === null ? 'none' : yFormat(value)}`).join(', ')}`,
    )
    .join('; ');
  return (
    <figure className="chart">
      <svg
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
        viewBox={`0 0 ${LINE_WIDTH} ${LINE_HEIGHT}`}
        className="line-chart"
      >
        <title id={titleId}>{title}</title>
        <desc id={descId}>{description}</desc>
        {yTicks.map((tick) => (
          <g key={tick}>
            <line className="grid" x1={MARGIN.left} x2={LINE_WIDTH - MARGIN.right} y1={yAt(tick)} y2={yAt(tick)} />
            <text x={MARGIN.left - 6} y={yAt(tick)} textAnchor="end" dominantBaseline="central" className="chart-value">
              {yFormat(tick)}
            </text>
          </g>
        ))}
        {xValues.map((x, index) => (
          <text key={x} x={xAt(index)} y={LINE_HEIGHT - MARGIN.bottom + 16} textAnchor="middle" className="chart-value">
            {xFormat(x)}
          </text>
        ))}
        <text x={MARGIN.left + plotWidth / 2} y={LINE_HEIGHT - 6} textAnchor="middle" className="chart-label">
          records in the corpus (log scale)
        </text>
        {series.map((line, seriesIndex) => {
          const points = line.values.flatMap((value, index) =>
            value === null ? [] : [{ x: xAt(index), y: yAt(value) }],
          );
          const size = 7 - seriesIndex * 1.4;
          return (
            <g key={line.key} className={`series series-${line.key}`}>
              <polyline points={points.map((point) => `${point.x},${point.y}`).join(' ')} className="series-line" />
              {points.map((point, index) => (
                <MarkerShape key={index} marker={markerOf(seriesIndex)} x={point.x} y={point.y} size={size} />
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {title}
        <ul className="legend" aria-label={`${title}: legend`}>
          {series.map((line, index) => (
            <li key={line.key} className={`series series-${line.key}`}>
              <svg viewBox="-8 -8 16 16" width="16" height="16" aria-hidden="true">
                <MarkerShape marker={markerOf(index)} x={0} y={0} size={5} />
              </svg>
              {line.label}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
