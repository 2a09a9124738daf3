import { describe, expect, it } from 'vitest'
import { buttonOf, keywordOf } from './keywords'

describe('opt-out and opt-in keywords', () => {
  it.each(['STOP', 'stop', ' Stop. ', 'STOP!', 'StopAll', 'UNSUBSCRIBE', 'cancel', 'End', 'quit'])(
    'opts out on %j',
    (text) => expect(keywordOf(text)).toEqual({ action: 'opt_out', method: 'keyword' }),
  )

  it('opts out on the Hindi रोकें and बंद, composed or decomposed', () => {
    expect(keywordOf('रोकें')).toEqual({ action: 'opt_out', method: 'keyword' })
    expect(keywordOf(' बंद। ')).toEqual({ action: 'opt_out', method: 'keyword' })
    expect(keywordOf('रोकें'.normalize('NFD'))).toEqual({ action: 'opt_out', method: 'keyword' })
  })

  it.each(['START', 'start', 'Unstop', 'yes', 'YES.'])('opts in on %j', (text) =>
    expect(keywordOf(text)).toEqual({ action: 'opt_in', method: 'keyword' }),
  )

  it.each(['Please stop calling me', 'stopped', 'yes please', '', 'ok', 'STOP '.repeat(20)])(
    'leaves %j alone',
    (text) => expect(keywordOf(text)).toBeNull(),
  )

  it('reads buttons titled Unsubscribe or Stop promotions as a button opt-out', () => {
    expect(buttonOf('Unsubscribe')).toEqual({ action: 'opt_out', method: 'button' })
    expect(buttonOf('Stop promotions')).toEqual({ action: 'opt_out', method: 'button' })
    expect(buttonOf('Stop Promotions')).toEqual({ action: 'opt_out', method: 'button' })
    expect(buttonOf('Book now')).toBeNull()
  })
})
