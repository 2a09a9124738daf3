import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import {
  applyTemplate,
  batchPercent,
  freeTextBlock,
  offeredTemplates,
  templateChoices,
  skippedTotal,
  smsCounter,
} from './message-rules'
import type { ContactState, MessageBatch, MessageTemplate } from './types'
import { applyMessageEvent } from './use-message-events'
import { sendMessageBody } from './api/send-message'

const template = (over: Partial<MessageTemplate>): MessageTemplate => ({
  id: over.key ?? 'x',
  key: null,
  name: 'T',
  channel: 'whatsapp',
  subject: null,
  body: 'Hi {name}',
  category: null,
  providerTemplateName: null,
  contentSid: null,
  language: null,
  variables: null,
  dltTemplateId: null,
  approvalStatus: 'approved',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
})

const state = (over: Partial<ContactState>): ContactState => ({
  whatsappWindowOpen: true,
  lastInboundWhatsappAt: null,
  optedOut: { whatsapp: false, sms: false, email: false },
  sandbox: { whatsapp: true, sms: true, email: true },
  ...over,
})

describe('the message dialog rules', () => {
  it('fills {name} in the text and the subject', () => {
    expect(
      applyTemplate({ body: 'Hello {name}, welcome', subject: 'For {name}' }, 'Asha Rao'),
    ).toEqual({ content: 'Hello Asha Rao, welcome', subject: 'For Asha Rao' })
    expect(applyTemplate({ body: 'Hi', subject: null }, 'A').subject).toBe('')
    expect(
      applyTemplate({ body: '{name} at {clinic}', subject: null }, 'A', 'Sanjeevani').content,
    ).toBe('A at Sanjeevani')
    expect(applyTemplate({ body: '{name} at {clinic}', subject: null }, 'A').content).toBe(
      'A at {clinic}',
    )
  })

  it('counts SMS as the spec says, and Hindi or ₹ as UCS-2 with 70 a part', () => {
    expect(smsCounter('Hello')).toEqual({ count: '5/160', detail: '1 part · GSM-7' })
    expect(smsCounter('a'.repeat(161)).detail).toBe('2 parts · GSM-7')
    const hindi = smsCounter('नमस्ते, आपकी अपॉइंटमेंट कल है')
    expect(hindi.count).toMatch(/^\d+\/70$/)
    expect(hindi.detail).toContain('UCS-2')
    expect(smsCounter('Fee ₹500').detail).toMatch(/^1 part · Unicode/)
    expect(smsCounter('₹'.repeat(71)).detail).toMatch(/^2 parts/)
  })

  it('says why free text is refused: opted out first, then the WhatsApp window', () => {
    expect(freeTextBlock('whatsapp', undefined)).toBeNull()
    expect(freeTextBlock('whatsapp', state({ whatsappWindowOpen: false }))).toBe('outside-window')
    expect(freeTextBlock('sms', state({ whatsappWindowOpen: false }))).toBeNull()
    expect(
      freeTextBlock(
        'whatsapp',
        state({
          whatsappWindowOpen: false,
          optedOut: { whatsapp: true, sms: false, email: false },
        }),
      ),
    ).toBe('opted-out')
    expect(
      freeTextBlock('email', state({ optedOut: { whatsapp: false, sms: false, email: true } })),
    ).toBe('opted-out')
  })

  it("offers the spec's templates first, and outside the window only approved provider ones", () => {
    const named = { providerTemplateName: 'clinic_hello' }
    const list = [
      template({ key: null, name: 'Zeta', ...named }),
      template({ key: 'follow-up', name: 'Follow-up', contentSid: 'HX1' }),
      template({ key: 'welcome', name: 'Welcome', approvalStatus: 'pending', ...named }),
      template({ key: 'appointment-reminder', name: 'Reminder', ...named }),
      template({ key: null, name: 'Plain' }),
    ]
    expect(offeredTemplates(list, false).map((t) => t.name)).toEqual([
      'Welcome',
      'Reminder',
      'Follow-up',
      'Plain',
      'Zeta',
    ])
    expect(offeredTemplates(list, true).map((t) => t.name)).toEqual([
      'Reminder',
      'Follow-up',
      'Zeta',
    ])
  })

  it('on the sandbox offers every WhatsApp template, approved by it (issue 40)', () => {
    const list = [
      template({ key: 'follow-up', name: 'Follow-up', sandbox: true }),
      template({ key: 'welcome', name: 'Welcome', sandbox: true }),
      template({ key: null, name: 'Plain', approvalStatus: 'not_required' }),
    ]
    expect(offeredTemplates(list, true).map((t) => t.name)).toEqual(['Welcome', 'Follow-up'])
  })

  it('keeps the spec choices listed outside the window, saying which need approval', () => {
    const list = [
      template({ key: 'welcome', name: 'Welcome', approvalStatus: 'not_required' }),
      template({ key: 'follow-up', name: 'Follow-up', providerTemplateName: 'fu' }),
    ]
    expect(templateChoices(list, true).map((t) => [t.name, t.needsApproval])).toEqual([
      ['Welcome', true],
      ['Follow-up', false],
    ])
    expect(templateChoices(list, false).every((t) => !t.needsApproval)).toBe(true)
  })

  it('sends the subject only for email and only when not empty', () => {
    const to = { kind: 'lead' as const, id: 'L1' }
    expect(sendMessageBody({ to, type: 'email', content: 'x', subject: '  ' })).toEqual({
      leadId: 'L1',
      type: 'email',
      direction: 'outbound',
      status: 'sent',
      content: 'x',
      metadata: {},
    })
    expect(
      sendMessageBody({
        to: { kind: 'patient', id: 'P1' },
        type: 'sms',
        content: 'x',
        subject: 'S',
      }),
    ).not.toHaveProperty('subject')
    expect(
      sendMessageBody({
        to,
        type: 'email',
        content: 'x',
        subject: 'Hi',
        templateId: 't',
        templateName: 'welcome',
      }),
    ).toMatchObject({
      subject: 'Hi',
      templateId: 't',
      metadata: { subject: 'Hi', template: 'welcome' },
    })
  })
})

describe('bulk progress', () => {
  const batch = (over: Partial<MessageBatch>): MessageBatch => ({
    id: 'b',
    channel: 'sms',
    requested: 10,
    queued: 8,
    skipped: 2,
    counts: { queued: 8, sending: 0, sent: 0, delivered: 0, read: 0, failed: 0 },
    failures: [],
    done: false,
    createdAt: '',
    ...over,
  })

  it('fills as the provider takes or refuses messages, and is full when done', () => {
    expect(batchPercent(batch({}))).toBe(0)
    expect(
      batchPercent(
        batch({ counts: { queued: 4, sending: 0, sent: 1, delivered: 2, read: 0, failed: 1 } }),
      ),
    ).toBe(50)
    expect(batchPercent(batch({ done: true }))).toBe(100)
    expect(batchPercent(batch({ queued: 0 }))).toBe(0)
  })

  it('adds skipped counts by reason', () => {
    expect(skippedTotal(3)).toBe(3)
    expect(skippedTotal({ opted_out: 1, no_email: 2, invalid_number: 0 })).toBe(3)
  })
})

describe('message events', () => {
  it("refreshes the lead's and patient's histories, and sets the bell's count", () => {
    const client = new QueryClient()
    client.setQueryData(['/api/leads', 'communications', 'L1'], [])
    client.setQueryData(['/api/patients', 'communications', 'P1'], [])
    client.setQueryData(['/api/leads', 'communications', 'L2'], [])
    applyMessageEvent(
      client,
      'communication',
      JSON.stringify({
        id: 'c',
        leadId: 'L1',
        patientId: 'P1',
        status: 'delivered',
        direction: 'outbound',
      }),
    )
    expect(client.getQueryState(['/api/leads', 'communications', 'L1'])?.isInvalidated).toBe(true)
    expect(client.getQueryState(['/api/patients', 'communications', 'P1'])?.isInvalidated).toBe(
      true,
    )
    expect(client.getQueryState(['/api/leads', 'communications', 'L2'])?.isInvalidated).toBe(false)

    applyMessageEvent(client, 'unread', JSON.stringify({ count: 4 }))
    expect(client.getQueryData(['/api/messaging/unread'])).toEqual({ count: 4 })
    applyMessageEvent(client, 'unread', 'not json')
    applyMessageEvent(client, 'unread', JSON.stringify({ count: 'x' }))
    expect(client.getQueryData(['/api/messaging/unread'])).toEqual({ count: 4 })
  })
})
