// The one daily chart (the insights page and the partner report): an inline SVG drawn on the server,
// one line per series over the Paris days, readable without JavaScript (`role="img"` with a title
// and a text summary), with the same figures in a table beside it for screen readers and for
// reading exact values. Callers name their series; the drawing, the scale and the table live here.

import Html from "@kitajs/html";

/** One line of the chart: which figure of a day it draws, its label, colour and dash pattern. */
export interface ChartSeries<K extends string> {
  key: K;
  label: string;
  colour: string;
  /** An SVG stroke-dasharray ("6 3"); a solid line without it. */
  dash?: string;
}

/** One Paris day (YYYY-MM-DD) and its figures. */
export type ChartDay<K extends string> = { day: string } & Record<K, number>;

const WIDTH = 720;
const HEIGHT = 260;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

/** A round axis maximum at or above `max` (1, 2, 5 × 10^n). */
function niceMax(max: number): number {
  if (max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const dayLabel = (day: string) => `${Number(day.slice(8, 10))}/${Number(day.slice(5, 7))}`;

/** The chart of `days`, one line per series, and its data table; `title` names the chart. */
export function DailyChart<K extends string>(props: { title: string; series: readonly ChartSeries<K>[]; days: readonly ChartDay<K>[] }): JSX.Element {
  const { series, days } = props;
  const max = niceMax(Math.max(0, ...days.flatMap((d) => series.map((s) => d[s.key]))));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (days.length <= 1 ? plotW / 2 : (i * plotW) / (days.length - 1));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const labelEvery = Math.max(1, Math.ceil(days.length / 8));
  const total = (key: K) => days.reduce((n, d) => n + d[key], 0);
  const summary = `${days.length} days from ${days[0]?.day ?? "–"} to ${days.at(-1)?.day ?? "–"}: ${series.map((s) => `${s.label} ${total(s.key)}`).join(", ")}.`;
  return (
    <figure class="daily-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="daily-chart-title daily-chart-desc" preserveAspectRatio="xMidYMid meet">
        <title id="daily-chart-title" safe>
          {props.title}
        </title>
        <desc id="daily-chart-desc" safe>
          {summary}
        </desc>
        {[0, 0.25, 0.5, 0.75, 1].map((f) => (
          <g class="chart-grid">
            <line x1={String(PAD.left)} x2={String(WIDTH - PAD.right)} y1={String(y(max * f))} y2={String(y(max * f))} stroke="#d4d4d8" stroke-width="1" />
            <text x={String(PAD.left - 6)} y={String(y(max * f) + 4)} text-anchor="end" font-size="11" fill="#52525b" safe>
              {String(Math.round(max * f))}
            </text>
          </g>
        ))}
        {days.map((d, i) =>
          i % labelEvery === 0 || i === days.length - 1 ? (
            <text x={String(x(i))} y={String(HEIGHT - 8)} text-anchor={i > 0 && i === days.length - 1 ? "end" : "middle"} font-size="11" fill="#52525b" safe>
              {dayLabel(d.day)}
            </text>
          ) : (
            ""
          ),
        )}
        {series.map((s) => (
          <polyline
            class={`chart-line chart-${s.key}`}
            fill="none"
            stroke={s.colour}
            stroke-width="2"
            stroke-dasharray={s.dash || undefined}
            points={days.map((d, i) => `${x(i).toFixed(1)},${y(d[s.key]).toFixed(1)}`).join(" ")}
          />
        ))}
      </svg>
      <figcaption class="chart-legend">
        {series.map((s) => (
          <span class="legend-item">
            <span class="legend-swatch" style={`background:${s.colour}`} aria-hidden="true"></span>
            {Html.escapeHtml(s.label)}
          </span>
        ))}
      </figcaption>
      <details class="chart-table">
        <summary>Daily figures as a table</summary>
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((s) => (
                  <th scope="col" safe>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr>
                  <th scope="row" safe>
                    {d.day}
                  </th>
                  {series.map((s) => (
                    <td safe>{String(d[s.key])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
