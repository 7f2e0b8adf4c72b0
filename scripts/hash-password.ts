// Prints an ADMIN_PASSWORD_HASH value: npm run hash-password -- 'the password'
import { hashPassword } from '@app/shared/password';

const password = process.argv[2];
if (!password) {
  console.error("Usage: npm run hash-password -- '<password>'");
  process.exit(2);
}
console.info(await hashPassword(password));
