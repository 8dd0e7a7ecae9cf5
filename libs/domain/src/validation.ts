import * as yup from 'yup';
import { ACCOUNT_TEXT } from './texts';

/** Spec 01 §9: password length 8 to 30 characters. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 30;

/** Spec 01 §5 default validator messages, with the field's display name. */
export const messages = {
  notEmpty: (name: string) => `${name} may not be empty.`,
  email: (name: string) => `${name} must be a valid email address.`,
  lengthBetween: (name: string, a: number, b: number) => `${name} must be between ${a}-${b} characters long.`,
  equals: (name: string, other: string) => `${name} must be equal to ${other}.`,
};

/**
 * The most common passwords (OWASP ASVS 2.1.7 asks to refuse them). A short list is enough here: the
 * length rule already removes the shortest ones.
 */
const COMMON_PASSWORDS = new Set(
  [
    'password',
    'password1',
    'password123',
    'passw0rd',
    '12345678',
    '123456789',
    '1234567890',
    'qwerty123',
    'qwertyuiop',
    '11111111',
    '00000000',
    'iloveyou',
    'abc12345',
    'abcd1234',
    'sunshine',
    'princess',
    'football',
    'baseball',
    'welcome1',
    'welcome123',
    'letmein1',
    'monkey123',
    'dragon123',
    'master123',
    'superman',
    'trustno1',
    'starwars',
    'whatever',
    'admin123',
    'administrator',
    'changeme',
    'p@ssw0rd',
    'qwerty12',
    '1q2w3e4r',
    '1qaz2wsx',
    'zaq12wsx',
    'asdfghjkl',
    'iloveyou1',
    'password!',
    'Password1',
    '87654321',
    '12341234',
    '11223344',
    'q1w2e3r4',
    'aa123456',
    'football1',
    'letmein123',
    'welcome',
  ].map((p) => p.toLowerCase()),
);
export const isCommonPassword = (password: string) => COMMON_PASSWORDS.has(password.toLowerCase());

/** Loose but practical e-mail check (yup's own check, which the forms use as well). */
const emailSchema = yup.string().email();
export const isValidEmail = (value: string) =>
  value.length <= 254 && emailSchema.isValidSync(value) && /@.+\./.test(value);

const password = () =>
  yup
    .string()
    .required(messages.notEmpty('Password'))
    .min(PASSWORD_MIN, messages.lengthBetween('Password', PASSWORD_MIN, PASSWORD_MAX))
    .max(PASSWORD_MAX, messages.lengthBetween('Password', PASSWORD_MIN, PASSWORD_MAX))
    .test('not-common', ACCOUNT_TEXT.commonPassword, (v) => !v || !isCommonPassword(v));

const confirmPassword = () =>
  yup
    .string()
    .required(messages.notEmpty('Confirm Password'))
    .oneOf([yup.ref('password')], messages.equals('Confirm Password', 'Password'));

const email = () =>
  yup
    .string()
    .trim()
    .required(messages.notEmpty('Email'))
    .test('email', messages.email('Email'), (v) => !v || isValidEmail(v));

/** Spec 01 §5 Registration. Shared by the register form and by identity. */
export const registerSchema = yup.object({
  name: yup
    .string()
    .trim()
    .required(messages.notEmpty('Name'))
    .max(200, messages.lengthBetween('Name', 1, 200)),
  email: email(),
  password: password(),
  confirmPassword: confirmPassword(),
});

export const loginSchema = yup.object({
  email: email(),
  password: yup.string().required(messages.notEmpty('Password')),
});

export const emailOnlySchema = yup.object({ email: email() });

export const newPasswordSchema = yup.object({ password: password(), confirmPassword: confirmPassword() });

/** Runs a schema and returns every message (empty when valid), in field order. */
export function validationMessages(schema: yup.AnySchema, value: unknown): string[] {
  try {
    schema.validateSync(value, { abortEarly: false });
    return [];
  } catch (err) {
    if (err instanceof yup.ValidationError) return err.errors;
    throw err;
  }
}

/** Spec 01 §5: the e-mail is lower-cased (and trimmed) at registration and login. */
export const normaliseEmail = (value: string) => value.trim().toLowerCase();
