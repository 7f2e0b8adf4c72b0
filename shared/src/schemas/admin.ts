import { z } from 'zod';

export const adminLoginSchema = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1_000),
});

export interface AdminSession {
  authenticated: boolean;
}
