import PDFDocument from 'pdfkit'
import QRCode from 'qrcode'
import { paymentMethodLabels } from '../../../shared/billing'
import { formatCalendarDate, formatDate } from '../../../shared/dates'
import { gstTotalRows, invoiceGstSummary, placeOfSupplyLabel } from '../../../shared/gst-summary'
import { upiPayUri } from '../../../shared/invoice-math'
import { formatMoney } from '../../../shared/money'
import type { InvoiceDetail } from '../../../shared/schemas/billing'
import { type FontWeight, pdfFont } from './pdf-fonts'

/** The PDF's file name: the invoice number with '/' as '-'. */
export function invoicePdfFileName(invoiceNumber: string): string {
  return `${invoiceNumber.replace(/\//g, '-')}.pdf`
}

/** What a UPI QR code on this invoice encodes (null: no UPI id, or nothing left to pay). */
export function invoiceUpiUri(invoice: InvoiceDetail): string | null {
  if (!invoice.hospital.upiId || invoice.status === 'cancelled' || invoice.balance <= 0) return null
  return upiPayUri({
    vpa: invoice.hospital.upiId,
    payee: invoice.hospital.name,
    amountPaise: invoice.balance,
    invoiceNumber: invoice.invoiceNumber,
  })
}

/** The QR code of a UPI link as a PNG (error correction M, 4 px modules, quiet zone 2). */
export function upiQrPng(uri: string): Promise<Buffer> {
  return QRCode.toBuffer(uri, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 4 })
}

/**
 * Parsed fonts kept across documents. pdfkit (0.20) takes a parsed fontkit font as a source as
 * well as bytes; parsing DejaVu Sans for every PDF cost about 5 times the rest of the document,
 * so the first document's parsed fonts (pdfkit's own, read back from it) serve the next ones.
 */
const parsedFonts: Partial<Record<FontWeight, unknown>> = {}

function fontSource(weight: FontWeight): string {
  return (parsedFonts[weight] ?? pdfFont(weight)) as string
}

function keepParsedFont(doc: PDFKit.PDFDocument, weight: FontWeight): void {
  if (parsedFonts[weight]) return
  doc.font(weight)
  const font = (doc as unknown as { _font?: { font?: { layout?: unknown } } })._font?.font
  if (font && typeof font.layout === 'function') parsedFonts[weight] = font
}

const M = 40
const WIDTH = 595.28 - 2 * M
const GREY = '#555555'
const LINE = '#bbbbbb'
const statusLabel = { pending: 'Pending', paid: 'Paid', overdue: 'Overdue', cancelled: 'Cancelled' }

/** Table columns: header, width, right-aligned. Widths add up to the page's inner width. */
const COLUMNS = [
  ['#', 20, false],
  ['Description', 150, false],
  ['SAC/HSN', 55, false],
  ['Qty', 35, true],
  ['Rate', 70, true],
  ['Discount', 60, true],
  ['GST', 35, true],
  ['Amount', 90.28, true],
] as const

/**
 * The invoice as a real A4 PDF (pdfkit): the hospital (name, address, GSTIN when set), 'Tax
 * Invoice' or 'Bill of Supply', number and dates, the patient (name, address, place of supply as
 * 'Maharashtra (27)'), the lines (SAC/HSN, quantity, rate, discount, GST rate, amount), the
 * shared GST rows (exempt and taxable value, CGST + SGST or IGST with their rates), totals, the
 * amount in words, the payments (date, amount, method, reference), and,
 * when the hospital has a UPI id and a balance is due, a QR code of the UPI link for it.
 */
export async function renderInvoicePdf(invoice: InvoiceDetail, timeZone: string): Promise<Buffer> {
  const uri = invoiceUpiUri(invoice)
  const qr = uri ? await upiQrPng(uri) : null
  const title = invoice.kind === 'tax_invoice' ? 'Tax Invoice' : 'Bill of Supply'
  const doc = new PDFDocument({
    size: 'A4',
    margin: M,
    font: fontSource('regular'),
    info: { Title: `${title} ${invoice.invoiceNumber}`, Author: invoice.hospital.name },
  })
  doc.registerFont('regular', fontSource('regular'))
  doc.registerFont('bold', fontSource('bold'))
  keepParsedFont(doc, 'regular')
  keepParsedFont(doc, 'bold')
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const h = invoice.hospital

  // Header: the hospital on the left, the document on the right.
  doc.font('bold').fontSize(16).text(h.name, M, M, { width: 300 })
  doc.font('regular').fontSize(9).fillColor(GREY)
  if (h.address) doc.text(h.address, { width: 300 })
  if (h.gstin) doc.fillColor('black').text(`GSTIN: ${h.gstin}`, { width: 300 })
  const leftBottom = doc.y
  doc
    .fillColor('black')
    .font('bold')
    .fontSize(18)
    .text(title, M + 300, M, { width: WIDTH - 300, align: 'right' })
  doc.font('regular').fontSize(9)
  const meta: [string, string][] = [
    ['Invoice No.', invoice.invoiceNumber],
    ['Invoice date', formatCalendarDate(invoice.issueDate)],
    ['Due date', formatCalendarDate(invoice.dueDate)],
    ['Status', statusLabel[invoice.status]],
  ]
  if (invoice.paidAt) meta.push(['Paid on', formatDate(invoice.paidAt, timeZone)])
  for (const [k, v] of meta)
    doc.text(`${k}: ${v}`, M + 300, doc.y, { width: WIDTH - 300, align: 'right' })
  let y = Math.max(leftBottom, doc.y) + 14
  doc
    .moveTo(M, y)
    .lineTo(M + WIDTH, y)
    .strokeColor(LINE)
    .stroke()
  y += 8

  // The patient.
  doc.font('bold').fontSize(10).text('Billed to', M, y)
  doc.font('regular').text(invoice.patientName)
  doc.fontSize(9)
  if (invoice.patientAddress) doc.text(invoice.patientAddress, { width: 300 })
  const place = placeOfSupplyLabel(invoice.patientStateCode ?? h.stateCode)
  if (place) doc.fillColor(GREY).text(`Place of supply: ${place}`).fillColor('black')
  y = doc.y + 12

  // The lines.
  const row = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'bold' : 'regular').fontSize(8.5)
    let x = M
    let bottom = y
    COLUMNS.forEach(([, width, right], i) => {
      doc.text(cells[i] ?? '', x + 2, y, { width: width - 4, align: right ? 'right' : 'left' })
      bottom = Math.max(bottom, doc.y)
      x += width
    })
    y = bottom + 4
    doc
      .moveTo(M, y - 2)
      .lineTo(M + WIDTH, y - 2)
      .strokeColor(LINE)
      .stroke()
  }
  row(
    COLUMNS.map(([label]) => label),
    true,
  )
  for (const l of invoice.lines) {
    if (y > 700) {
      doc.addPage()
      y = M
    }
    row(
      [
        String(l.lineNo),
        l.name,
        l.code ?? '',
        String(l.quantity),
        formatMoney(l.unitPrice),
        l.discount ? formatMoney(l.discount) : '',
        `${l.gstRate}%`,
        formatMoney(l.taxableValue),
      ],
      false,
    )
  }

  // Totals.
  // The shared rows (as on the preview and View Details): exempt and taxable value apart, a Bill
  // of Supply with no taxable value, CGST + SGST or IGST with their rates.
  const totals = gstTotalRows(invoiceGstSummary(invoice), invoice).map(
    (r) => [r.label, r.value] as const,
  )
  if (y > 640) {
    doc.addPage()
    y = M
  }
  y += 6
  const totalsTop = y
  for (const [label, value] of totals) {
    doc
      .font('regular')
      .fontSize(9)
      .text(label, M + 300, y, { width: 110 })
    doc.text(formatMoney(value), M + 410, y, { width: WIDTH - 410, align: 'right' })
    y = doc.y + 3
  }
  doc
    .font('bold')
    .fontSize(11)
    .text('Total', M + 300, y, { width: 110 })
  doc.text(formatMoney(invoice.amount), M + 410, y, { width: WIDTH - 410, align: 'right' })
  y = doc.y + 3
  if (invoice.amountPaid > 0) {
    doc
      .font('regular')
      .fontSize(9)
      .text('Paid', M + 300, y, { width: 110 })
    doc.text(formatMoney(invoice.amountPaid), M + 410, y, { width: WIDTH - 410, align: 'right' })
    y = doc.y + 3
    doc.font('bold').text('Balance due', M + 300, y, { width: 110 })
    doc.text(formatMoney(invoice.balance), M + 410, y, { width: WIDTH - 410, align: 'right' })
    y = doc.y + 3
  }
  // Amount in words, and the QR code, on the left of the totals.
  doc.font('bold').fontSize(9).text('Amount in words', M, totalsTop, { width: 280 })
  doc.font('regular').text(invoice.amountInWords, { width: 280 })
  let left = doc.y + 8
  if (invoice.kind === 'bill_of_supply') {
    doc.fillColor(GREY).fontSize(8)
    doc.text(
      'Healthcare services by a clinical establishment are exempt from GST (SAC 9993).',
      M,
      left,
      { width: 280 },
    )
    doc.fillColor('black')
    left = doc.y + 8
  }
  if (qr && uri) {
    doc
      .font('bold')
      .fontSize(9)
      .text(`Scan to pay ${formatMoney(invoice.balance)} by UPI`, M, left, { width: 280 })
    doc.image(qr, M, doc.y + 4, { width: 110 })
    doc
      .font('regular')
      .fontSize(8)
      .text(`UPI ID: ${h.upiId ?? ''}`, M, doc.y + 118, { width: 280 })
    left = doc.y
  }
  y = Math.max(y, left) + 14
  if (invoice.payments.length > 0) {
    if (y > 720) {
      doc.addPage()
      y = M
    }
    doc.font('bold').fontSize(9).text('Payments', M, y)
    doc.font('regular')
    for (const p of invoice.payments) {
      const parts = [
        formatDate(p.paidAt, timeZone),
        formatMoney(p.amount),
        paymentMethodLabels[p.method],
        ...(p.reference ? [`Ref. ${p.reference}`] : []),
      ]
      doc.text(parts.join(' · '), { width: WIDTH })
    }
    y = doc.y + 8
  }
  if (invoice.status === 'cancelled') {
    doc
      .font('bold')
      .fontSize(10)
      .fillColor('#b91c1c')
      .text(`Cancelled: ${invoice.cancelReason ?? ''}`, M, y, { width: WIDTH })
    doc.fillColor('black')
    y = doc.y + 8
  }
  if (invoice.notes) {
    doc.font('bold').fontSize(9).text('Notes', M, y)
    doc.font('regular').text(invoice.notes, { width: WIDTH })
    y = doc.y + 8
  }
  doc
    .fillColor(GREY)
    .fontSize(8)
    .text('This is a computer-generated invoice.', M, Math.max(y, 780), {
      width: WIDTH,
      align: 'center',
    })
  doc.end()
  return done
}
