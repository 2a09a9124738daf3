export interface Currency {
  code: string
  symbol: string
  name: string
  country: string
  locale: string
}

/** The 24 currencies the product offers (spec section 3, "Currency table"). */
export const currencies: readonly Currency[] = [
  { code: 'USD', symbol: '$', name: 'US Dollar', country: 'United States', locale: 'en-US' },
  { code: 'EUR', symbol: '€', name: 'Euro', country: 'European Union', locale: 'de-DE' },
  { code: 'GBP', symbol: '£', name: 'British Pound', country: 'United Kingdom', locale: 'en-GB' },
  { code: 'JPY', symbol: '¥', name: 'Japanese Yen', country: 'Japan', locale: 'ja-JP' },
  { code: 'CAD', symbol: 'C$', name: 'Canadian Dollar', country: 'Canada', locale: 'en-CA' },
  { code: 'AUD', symbol: 'A$', name: 'Australian Dollar', country: 'Australia', locale: 'en-AU' },
  { code: 'CHF', symbol: 'CHF', name: 'Swiss Franc', country: 'Switzerland', locale: 'de-CH' },
  { code: 'CNY', symbol: '¥', name: 'Chinese Yuan', country: 'China', locale: 'zh-CN' },
  { code: 'INR', symbol: '₹', name: 'Indian Rupee', country: 'India', locale: 'en-IN' },
  { code: 'KRW', symbol: '₩', name: 'South Korean Won', country: 'South Korea', locale: 'ko-KR' },
  { code: 'BRL', symbol: 'R$', name: 'Brazilian Real', country: 'Brazil', locale: 'pt-BR' },
  { code: 'MXN', symbol: 'MX$', name: 'Mexican Peso', country: 'Mexico', locale: 'es-MX' },
  { code: 'SGD', symbol: 'S$', name: 'Singapore Dollar', country: 'Singapore', locale: 'en-SG' },
  { code: 'HKD', symbol: 'HK$', name: 'Hong Kong Dollar', country: 'Hong Kong', locale: 'zh-HK' },
  {
    code: 'NZD',
    symbol: 'NZ$',
    name: 'New Zealand Dollar',
    country: 'New Zealand',
    locale: 'en-NZ',
  },
  { code: 'SEK', symbol: 'kr', name: 'Swedish Krona', country: 'Sweden', locale: 'sv-SE' },
  { code: 'NOK', symbol: 'kr', name: 'Norwegian Krone', country: 'Norway', locale: 'nb-NO' },
  { code: 'DKK', symbol: 'kr', name: 'Danish Krone', country: 'Denmark', locale: 'da-DK' },
  { code: 'PLN', symbol: 'zł', name: 'Polish Złoty', country: 'Poland', locale: 'pl-PL' },
  { code: 'RUB', symbol: '₽', name: 'Russian Ruble', country: 'Russia', locale: 'ru-RU' },
  {
    code: 'AED',
    symbol: 'د.إ',
    name: 'UAE Dirham',
    country: 'United Arab Emirates',
    locale: 'ar-AE',
  },
  { code: 'SAR', symbol: '﷼', name: 'Saudi Riyal', country: 'Saudi Arabia', locale: 'ar-SA' },
  {
    code: 'ZAR',
    symbol: 'R',
    name: 'South African Rand',
    country: 'South Africa',
    locale: 'en-ZA',
  },
  { code: 'TRY', symbol: '₺', name: 'Turkish Lira', country: 'Turkey', locale: 'tr-TR' },
]

export const DEFAULT_CURRENCY = 'INR'
/** Local-storage key holding the chosen display currency. */
export const CURRENCY_STORAGE_KEY = 'currency'

const zeroDecimal = new Set(['JPY', 'KRW'])

export function currencyDecimals(code: string): number {
  return zeroDecimal.has(code) ? 0 : 2
}

export function findCurrency(code: string): Currency {
  return (
    currencies.find((c) => c.code === code) ??
    (currencies.find((c) => c.code === DEFAULT_CURRENCY) as Currency)
  )
}
