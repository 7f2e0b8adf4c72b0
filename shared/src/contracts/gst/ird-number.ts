// Inland Revenue's check for an IRD (GST) number: 8 or 9 digits between 10,000,000 and 150,000,000,
// the last a check digit over the others (weights 3,2,7,6,5,4,3,2; when that gives 10, the secondary
// weights 7,4,3,2,5,2,7,6; 10 again means the number is not valid). Pure: the admin form uses it too.

const PRIMARY = [3, 2, 7, 6, 5, 4, 3, 2];
const SECONDARY = [7, 4, 3, 2, 5, 2, 7, 6];

/** The digits of a GST number as typed ("49-091-850", "49 091 850"), or null when it is not 8-9 digits. */
export function gstNumberDigits(value: string): string | null {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{8,9}$/.test(digits) ? digits : null;
}

function checkDigit(base: string, weights: number[]): number {
  const sum = [...base].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  const remainder = sum % 11;
  return remainder === 0 ? 0 : 11 - remainder;
}

export function isValidGstNumber(value: string): boolean {
  const digits = gstNumberDigits(value);
  if (!digits) return false;
  const number = Number(digits);
  if (number < 10_000_000 || number > 150_000_000) return false;
  const base = digits.slice(0, -1).padStart(8, '0');
  const given = Number(digits.at(-1));
  let expected = checkDigit(base, PRIMARY);
  if (expected === 10) expected = checkDigit(base, SECONDARY);
  return expected !== 10 && expected === given;
}

/** As IRD prints it: 49-091-850 or 136-410-132. */
export function formatGstNumber(digits: string): string {
  return digits.replace(/^(\d{2,3})(\d{3})(\d{3})$/, '$1-$2-$3');
}
