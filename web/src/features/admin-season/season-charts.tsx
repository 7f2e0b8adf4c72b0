import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatEventDate, formatMoney } from '@app/shared/format';
import type { SeasonDay } from '@app/shared/schemas';
import { funnelSteps, shortDay } from './figures.ts';

// The season view's pictures (decision 034), drawn with recharts and loaded only when the season view
// shows. They are for the eye: hidden from screen readers, which read the table beside each instead.

const axis = { fill: '#d4d4d8', fontSize: 12 };
const grid = 'rgba(255,255,255,0.08)';
const bar = 'var(--color-spotlight-400)';
const tooltip = {
  contentStyle: { background: '#14141f', border: '1px solid rgba(255,255,255,0.15)', borderRadius: 8 },
  labelStyle: { color: '#fafafa' },
  itemStyle: { color: '#fbd78a' },
  cursor: { fill: 'rgba(255,255,255,0.06)' },
};
const dollars = (cents: number) => `$${Math.round(cents / 100).toLocaleString('en-NZ')}`;

/** Revenue per New Zealand day, zero days included, so the weeks after a competition read left to right. */
export function SalesChart({ days }: { days: SeasonDay[] }) {
  return (
    <div aria-hidden="true" className="h-56 w-full sm:h-64">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={days} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={grid} vertical={false} />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={axis} minTickGap={16} tickLine={false} />
          <YAxis tickFormatter={dollars} tick={axis} width={56} tickLine={false} axisLine={false} />
          <Tooltip
            {...tooltip}
            labelFormatter={(day) => formatEventDate(String(day))}
            formatter={(cents) => [formatMoney(Number(cents)), 'Revenue']}
          />
          <Bar dataKey="revenueCents" fill={bar} radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Visits, checkouts started and paid purchases as bars of one scale: where the path loses people. */
export function FunnelChart({ funnel }: { funnel: Parameters<typeof funnelSteps>[0] }) {
  return (
    <div aria-hidden="true" className="h-44 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={funnelSteps(funnel)}
          layout="vertical"
          accessibilityLayer={false}
          margin={{ top: 0, right: 16, bottom: 0, left: 0 }}
        >
          <CartesianGrid stroke={grid} horizontal={false} />
          <XAxis type="number" tick={axis} allowDecimals={false} tickLine={false} />
          <YAxis type="category" dataKey="step" tick={axis} width={118} tickLine={false} axisLine={false} />
          <Tooltip {...tooltip} formatter={(count) => [String(count), 'Count']} />
          <Bar dataKey="count" fill={bar} radius={[0, 3, 3, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
