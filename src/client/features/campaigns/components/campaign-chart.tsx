import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts'
import type { CampaignDay } from '@/shared/schemas/campaigns'

const short = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' })

/** Leads (bars) and spend in rupees (line) per day. The default export: recharts is lazy. */
export default function CampaignChart({ series }: { series: CampaignDay[] }) {
  const rows = series.map((d) => ({
    day: short.format(new Date(`${d.date}T00:00:00Z`)),
    Leads: d.leads,
    'Spend (₹)': Math.round(d.spend / 100),
  }))
  return (
    <div
      role="img"
      aria-label={`Leads and spend per day from ${rows[0]?.day ?? ''} to ${rows.at(-1)?.day ?? ''}`}
      className="h-64 w-full min-w-0"
    >
      <ComposedChart
        responsive
        accessibilityLayer={false}
        data={rows}
        style={{ width: '100%', height: '100%' }}
        margin={{ top: 8, right: 4, bottom: 0, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" fontSize={11} minTickGap={16} />
        <YAxis yAxisId="leads" allowDecimals={false} fontSize={11} width={32} />
        <YAxis yAxisId="spend" orientation="right" fontSize={11} width={56} />
        <Tooltip />
        <Legend />
        <Bar yAxisId="leads" dataKey="Leads" fill="#0f766e" isAnimationActive={false} />
        <Line
          yAxisId="spend"
          dataKey="Spend (₹)"
          stroke="#b45309"
          dot={false}
          strokeWidth={2}
          isAnimationActive={false}
        />
      </ComposedChart>
    </div>
  )
}
