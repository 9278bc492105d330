import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { scoreTone, toneStroke } from '../score';

/**
 * The analytics page's bar charts (recharts). Each is a picture with a name for screen readers
 * (`role="img"`), its keyboard layer off: the data is in the table beside every chart, which is
 * what a screen reader or keyboard user reads instead.
 */

/** Horizontal bars, one per row; `scored` colours each bar by its score band (spec §9). */
export function BarsChart({
  rows,
  label,
  scored = false,
  max,
}: {
  rows: { name: string; value: number }[];
  label: string;
  scored?: boolean;
  max?: number;
}) {
  return (
    <div role="img" aria-label={label} style={{ height: Math.max(160, rows.length * 36 + 40) }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" accessibilityLayer={false} margin={{ right: 16 }}>
          <CartesianGrid stroke="#cbd5e1" strokeDasharray="3 3" horizontal={false} />
          <XAxis
            type="number"
            domain={max === undefined ? [0, 'auto'] : [0, max]}
            stroke="#334155"
            tick={{ fill: '#334155', fontSize: 12 }}
            allowDecimals={false}
          />
          <YAxis
            type="category"
            dataKey="name"
            width={150}
            stroke="#334155"
            tick={{ fill: '#334155', fontSize: 12 }}
          />
          <Tooltip />
          <Bar dataKey="value" name="Value" fill="#1d4ed8" isAnimationActive={false}>
            {scored &&
              rows.map((row) => <Cell key={row.name} fill={toneStroke[scoreTone(row.value)]} />)}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
