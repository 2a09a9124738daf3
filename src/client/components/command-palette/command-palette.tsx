import { Command } from 'cmdk'
import { FileText, Search, UserRound } from 'lucide-react'
import { Dialog as D } from 'radix-ui'
import { type ReactNode, useState } from 'react'
import { useLocation } from 'wouter'
import { Spinner } from '@/client/components/ui/spinner'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { paths } from '@/client/paths'
import type { CurrentUser } from '@/shared/schemas/auth'
import { actionsFor, matches, type PaletteEntry, screensFor } from './palette-entries'
import { type FoundRecord, MIN_SEARCH_LENGTH, useRecordSearch } from './search-records'

const group =
  'text-slate-900 [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pt-3 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-slate-600'
const item =
  'flex min-w-0 cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-brand-50 data-[selected=true]:text-brand-800'

function Item({
  value,
  icon,
  label,
  detail,
  onSelect,
}: {
  value: string
  icon: ReactNode
  label: string
  detail?: string
  onSelect: () => void
}) {
  return (
    <Command.Item value={value} onSelect={onSelect} className={item}>
      <span className="shrink-0 text-slate-600">{icon}</span>
      <span className="min-w-0 flex-1 truncate">{label}</span>
      {detail ? <span className="shrink-0 truncate text-xs text-slate-600">{detail}</span> : null}
    </Command.Item>
  )
}

function EntryItems({ entries, go }: { entries: PaletteEntry[]; go: (href: string) => void }) {
  return entries.map((e) => {
    const Icon = e.icon ?? FileText
    return (
      <Item
        key={e.id}
        value={e.id}
        icon={<Icon className="size-4" aria-hidden="true" />}
        label={e.label}
        onSelect={() => go(e.href)}
      />
    )
  })
}

function RecordItems({
  kind,
  records,
  go,
}: {
  kind: 'patient' | 'lead'
  records: FoundRecord[] | undefined
  go: (href: string) => void
}) {
  const base = kind === 'patient' ? paths.patients : paths.leads
  return (records ?? []).map((r) => (
    <Item
      key={r.id}
      value={`${kind}:${r.id}`}
      icon={<UserRound className="size-4" aria-hidden="true" />}
      label={r.name}
      detail={r.detail}
      onSelect={() => go(`${base}?open=${encodeURIComponent(r.id)}`)}
    />
  ))
}

/**
 * The command palette (Ctrl/⌘+K, issue 27), on cmdk: jump to a screen, find a patient or a lead
 * by name, phone or number, or start a new patient, lead, appointment or invoice. It offers
 * only what the user's role may do (the server checks again).
 */
export function CommandPalette({
  user,
  open,
  onOpenChange,
}: {
  user: CurrentUser
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const [text, setText] = useState('')
  const typed = text.trim()
  const search = useDebouncedValue(typed, 250)
  const [, navigate] = useLocation()
  const { patients, leads } = useRecordSearch(user, search)
  const screens = screensFor(user).filter((e) => matches(e, typed))
  const actions = actionsFor(user).filter((e) => matches(e, typed))
  const searching =
    typed.length >= MIN_SEARCH_LENGTH &&
    (typed !== search || patients.isFetching || leads.isFetching)
  const failed = patients.isError || leads.isError

  function go(href: string) {
    onOpenChange(false)
    setText('')
    navigate(href)
  }

  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <D.Content
          aria-describedby={undefined}
          className="fixed top-[10vh] left-1/2 z-50 w-[calc(100%-1.5rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xl"
        >
          <D.Title className="sr-only">Command palette</D.Title>
          <Command shouldFilter={false} label="Command palette" loop>
            <div className="flex items-center gap-2 border-b border-slate-200 px-3">
              <Search className="size-4 shrink-0 text-slate-600" aria-hidden="true" />
              <Command.Input
                value={text}
                onValueChange={setText}
                placeholder="Search patients, leads, screens…"
                className="h-12 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-slate-600 sm:text-sm"
              />
              {searching ? <Spinner className="size-4 shrink-0" /> : null}
            </div>
            <Command.List className="max-h-[min(60vh,26rem)] overflow-x-hidden overflow-y-auto p-1">
              {!searching ? (
                <Command.Empty className="px-3 py-6 text-center text-sm text-slate-600">
                  {failed ? 'Search failed. Try again.' : 'No results found.'}
                </Command.Empty>
              ) : null}
              {actions.length ? (
                <Command.Group heading="Start" className={group}>
                  <EntryItems entries={actions} go={go} />
                </Command.Group>
              ) : null}
              {patients.data?.length ? (
                <Command.Group heading="Patients" className={group}>
                  <RecordItems kind="patient" records={patients.data} go={go} />
                </Command.Group>
              ) : null}
              {leads.data?.length ? (
                <Command.Group heading="Leads" className={group}>
                  <RecordItems kind="lead" records={leads.data} go={go} />
                </Command.Group>
              ) : null}
              {screens.length ? (
                <Command.Group heading="Go to" className={group}>
                  <EntryItems entries={screens} go={go} />
                </Command.Group>
              ) : null}
            </Command.List>
          </Command>
        </D.Content>
      </D.Portal>
    </D.Root>
  )
}
