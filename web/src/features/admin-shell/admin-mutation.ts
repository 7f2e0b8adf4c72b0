import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { toast } from '../../components/ui/toast-store.ts';
import { errorMessage } from '../../lib/api.ts';

/** The red toast of an admin action that failed: its title, and the server's message when it sent one. */
export function failureToast(title: string, error: unknown, fallback = 'An unknown error occurred'): void {
  toast({ title, description: errorMessage(error, fallback), variant: 'destructive' });
}

/**
 * useMutation for the admin screens: a failure is always toasted (`failure` is the toast's title, or made
 * from what was sent), and
 * `success`, when given, is the green toast's title (or made from the answer) before `onSuccess` runs.
 */
export function useAdminMutation<TData = unknown, TVariables = void>({
  failure,
  fallback,
  success,
  onSuccess,
  onError,
  ...options
}: UseMutationOptions<TData, Error, TVariables> & {
  failure: string | ((variables: TVariables) => string);
  fallback?: string;
  success?: string | ((data: TData) => string);
}) {
  return useMutation<TData, Error, TVariables>({
    ...options,
    onSuccess: async (data, variables, result, context) => {
      if (success)
        toast({ title: typeof success === 'string' ? success : success(data), variant: 'success' });
      await onSuccess?.(data, variables, result, context);
    },
    onError: async (error, variables, result, context) => {
      failureToast(typeof failure === 'string' ? failure : failure(variables), error, fallback);
      await onError?.(error, variables, result, context);
    },
  });
}
