/**
 * The support handbook the bot answers from: a dozen short sections of a (fictional) online shop.
 * In a real deployment this would come from your help centre or CMS; here it is data, so that the
 * example is self-contained and every answer can be traced back to a sentence below.
 */
export interface HandbookSection {
  /** Stable id: what retrieval returns and what the golden dataset's `relevant` lists. */
  id: string
  title: string
  text: string
}

export const handbook: readonly HandbookSection[] = [
  {
    id: 'refunds',
    title: 'Refunds',
    text:
      'You can ask for a refund within 30 days of delivery. Refunds go back to the original payment method and arrive within 5 to 10 business days after we receive the returned item. ' +
      'Gift cards and downloadable products cannot be refunded.',
  },
  {
    id: 'returns',
    title: 'Returning an item',
    text:
      'To return an item, start a return from the Orders page and print the prepaid return label. ' +
      'Pack the item in its original packaging and drop it off at any parcel shop within 14 days of starting the return. ' +
      'Returns are free for customers in the EU and the UK.',
  },
  {
    id: 'shipping',
    title: 'Shipping times and costs',
    text:
      'Standard shipping takes 3 to 5 business days and costs $4.99. Standard shipping is free on orders over $50. ' +
      'Express shipping takes 1 to 2 business days and costs $14.99. Orders placed before 2 pm ship the same day.',
  },
  {
    id: 'international',
    title: 'International shipping',
    text:
      'We ship to 38 countries in Europe and North America. International delivery takes 7 to 14 business days. ' +
      'Import duties and taxes are paid by the customer on delivery.',
  },
  {
    id: 'delivery-problems',
    title: 'Late, lost or damaged deliveries',
    text:
      'If your parcel has not arrived 5 business days after the expected delivery date, contact support and we will open an investigation with the carrier. ' +
      'If an item arrives damaged, send us a photo of the damage within 48 hours and we will send a replacement at no cost. ' +
      'Lost parcels are replaced or refunded once the carrier confirms the loss.',
  },
  {
    id: 'order-changes',
    title: 'Changing or cancelling an order',
    text:
      'You can change the delivery address or cancel an order from the Orders page until the order ships. ' +
      'Once an order has shipped it can no longer be cancelled; return it instead.',
  },
  {
    id: 'passwords',
    title: 'Resetting your password',
    text:
      'To reset your password, click "Forgot password" on the sign-in page and follow the link we email you. ' +
      'The reset link expires after 1 hour. If the email does not arrive, check your spam folder.',
  },
  {
    id: 'two-factor',
    title: 'Two-factor authentication',
    text:
      'You can turn on two-factor authentication under Account settings > Security, with an authenticator app on your phone. ' +
      'If you lose your phone, sign in with one of your backup codes and set up the authenticator app again.',
  },
  {
    id: 'invoices',
    title: 'Invoices',
    text:
      'We email every invoice as a PDF when the order ships, and you can download all your invoices from the Orders page. ' +
      'To put a company name or VAT number on an invoice, add it to your billing details before you place the order. Invoices that have been issued cannot be changed.',
  },
  {
    id: 'payment-methods',
    title: 'Payment methods',
    text: 'We accept Visa, Mastercard, American Express, PayPal and Apple Pay. ' + 'Your card is charged when the order ships, not when you place the order.',
  },
  {
    id: 'closing-account',
    title: 'Closing your account',
    text:
      'To close your account, go to Account settings > Privacy and choose "Close account". ' +
      'We delete your personal data within 30 days of closing the account, but we keep invoices for 7 years because the law requires it. ' +
      'Closing your account cancels open orders that have not shipped.',
  },
  {
    id: 'warranty',
    title: 'Warranty',
    text:
      'Every product has a 2-year warranty against manufacturing defects. To make a warranty claim, contact support with your order number and a description of the defect. ' +
      'The warranty does not cover accidental damage or normal wear.',
  },
]
