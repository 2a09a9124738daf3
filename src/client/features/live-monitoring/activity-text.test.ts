import { describe, expect, it } from 'vitest'
import { activityActor, activityPhrase, formatDuration, formatMinutes } from './activity-text'

describe('activityPhrase', () => {
  it('names the patient, the other party and the call length when the data has them', () => {
    expect(
      activityPhrase({
        activityType: 'patient_added',
        activityData: { patientName: 'Rahul Verma' },
      }),
    ).toBe('added patient Rahul Verma')
    expect(
      activityPhrase({
        activityType: 'call_end',
        activityData: { leadName: 'Kavya Nair', durationSeconds: 252 },
      }),
    ).toBe('ended a call with Kavya Nair (4 min 12 s)')
    expect(
      activityPhrase({ activityType: 'sms_sent', activityData: { recipientName: 'Arjun Rao' } }),
    ).toBe('sent an SMS to Arjun Rao')
    expect(
      activityPhrase({
        activityType: 'appointment_scheduled',
        activityData: { patientName: 'Meera Pillai' },
      }),
    ).toBe('scheduled an appointment for Meera Pillai')
  })

  it('says less, never guesses, when the data lacks a name or is of the wrong type', () => {
    expect(activityPhrase({ activityType: 'login', activityData: {} })).toBe('signed in')
    expect(activityPhrase({ activityType: 'logout', activityData: {} })).toBe('signed out')
    expect(
      activityPhrase({ activityType: 'patient_added', activityData: { patientName: 7 } }),
    ).toBe('added a patient')
    expect(
      activityPhrase({ activityType: 'call_end', activityData: { durationSeconds: '90' } }),
    ).toBe('ended a call')
    expect(activityPhrase({ activityType: 'email_sent', activityData: { leadName: '  ' } })).toBe(
      'sent an email',
    )
    expect(activityPhrase({ activityType: 'call_start', activityData: {} })).toBe('started a call')
  })
})

describe('durations', () => {
  it('reads as hours, minutes and seconds', () => {
    expect(formatDuration(45)).toBe('45 s')
    expect(formatDuration(120)).toBe('2 min')
    expect(formatDuration(3900)).toBe('1 h 5 min')
    expect(formatDuration(-3)).toBe('0 s')
    expect(formatMinutes(450)).toBe('7 h 30 min')
    expect(formatMinutes(480)).toBe('8 h')
    expect(formatMinutes(25)).toBe('25 min')
  })
})

describe('an online self-booking (issue 40, item 14)', () => {
  it('is shown as done by the patient, online, with the doctor, not by the doctor', () => {
    const online = {
      activityType: 'appointment_scheduled' as const,
      activityData: { patientName: 'Kavya Joshi', source: 'online' },
      userName: 'Dr. Meera Kulkarni',
    }
    expect(activityActor(online)).toBe('Kavya Joshi')
    expect(activityPhrase(online)).toBe('booked an appointment online with Dr. Meera Kulkarni')
    expect(activityActor({ ...online, activityData: { source: 'online' } })).toBe('Online booking')
    const staff = { ...online, activityData: { patientName: 'Kavya Joshi', source: 'staff' } }
    expect(activityActor(staff)).toBe('Dr. Meera Kulkarni')
    expect(activityPhrase(staff)).toBe('scheduled an appointment for Kavya Joshi')
  })
})
