import { describe, expect, it } from 'vitest'
import type { Appointment } from '@/shared/schemas/appointments'
import { isMovable, moved, toEvents, visibleRange } from './calendar-events'

const base: Appointment = {
  id: 'a1',
  patientId: 'p1',
  patientName: 'Aarav Sharma',
  patientPhone: '+919876543210',
  doctorId: 'd1',
  doctorName: 'Dr. Ananya Rao',
  serviceId: null,
  serviceType: 'OPD Consultation',
  appointmentDate: '2026-11-26T04:30:00.000Z',
  endsAt: '2026-11-26T05:00:00.000Z',
  duration: 30,
  status: 'scheduled',
  source: 'staff',
  leadId: null,
  notes: null,
  cancelReason: null,
  createdAt: '2026-11-20T04:30:00.000Z',
  updatedAt: '2026-11-20T04:30:00.000Z',
}

describe('calendar events', () => {
  it('asks for the hospital-zone day or the week from Sunday', () => {
    const thursday = new Date(2026, 10, 26, 10, 0)
    expect(visibleRange('day', thursday, 'Asia/Kolkata')).toEqual({
      from: '2026-11-25T18:30:00.000Z',
      to: '2026-11-26T18:30:00.000Z',
    })
    expect(visibleRange('week', thursday, 'Asia/Kolkata')).toEqual({
      from: '2026-11-21T18:30:00.000Z',
      to: '2026-11-28T18:30:00.000Z',
    })
  })

  it('places an appointment at its hospital wall clock and leaves cancelled ones out', () => {
    const events = toEvents([base, { ...base, id: 'a2', status: 'cancelled' }], 'Asia/Kolkata')
    expect(events).toHaveLength(1)
    const [event] = events
    expect([event?.start.getHours(), event?.start.getMinutes()]).toEqual([10, 0])
    expect([event?.end.getHours(), event?.end.getMinutes()]).toEqual([10, 30])
    expect(event?.title).toBe('Aarav Sharma · OPD Consultation · Dr. Ananya Rao')
  })

  it('moves only open appointments, keeping their length', () => {
    const [event] = toEvents([base], 'Asia/Kolkata')
    if (!event) throw new Error('no event')
    expect(isMovable(event)).toBe(true)
    expect(isMovable({ ...event, appointment: { ...base, status: 'completed' } })).toBe(false)
    const later = moved(event, new Date(2026, 10, 27, 15, 15))
    expect([later.end.getDate(), later.end.getHours(), later.end.getMinutes()]).toEqual([
      27, 15, 45,
    ])
  })
})
