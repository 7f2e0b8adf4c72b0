import { lazy, Suspense, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { Lock } from 'lucide-react';
import { SubmitButton } from '../../components/ui/button.tsx';
import { InputField, useTextInput } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { isApiError } from '../../lib/api.ts';
import { useAdminSession, useLogin, useSessionExpiry } from './session.ts';

/**
 * An admin screen that loads, and asks for its data, only once the owner is logged in: a visitor
 * downloads none of the admin code and makes no admin calls.
 */
export function gatedAdminPage(load: () => Promise<{ default: ComponentType }>): ComponentType {
  const Page = lazy(load);
  return function GatedAdminPage() {
    return (
      <AdminGate>
        <Suspense>
          <Page />
        </Suspense>
      </AdminGate>
    );
  };
}

/** Every admin screen sits behind this: a skeleton until the session is known, the login when there is none. */
export function AdminGate({ children }: { children: ReactNode }) {
  const session = useAdminSession();
  useSessionExpiry();
  if (session.isPending) {
    return (
      <div className="mx-auto max-w-6xl space-y-6 px-6 py-16" role="status" aria-label="Loading">
        <Skeleton className="h-10 w-64" />
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} className="h-36 rounded-2xl" />
          ))}
        </div>
      </div>
    );
  }
  if (!session.data?.authenticated) return <LoginForm />;
  return <>{children}</>;
}

function LoginForm() {
  const [password, passwordInput, setPassword] = useTextInput();
  const login = useLogin();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(password, {
      onSuccess: () =>
        toast({ title: 'Login Successful', description: 'Welcome to the admin panel', variant: 'success' }),
      onError: (error) => {
        setPassword('');
        const limited = isApiError(error, 'rate_limited');
        toast({
          title: 'Access Denied',
          description: limited ? (error.serverMessage ?? 'Too many attempts') : 'Incorrect password',
          variant: 'destructive',
        });
      },
    });
  };
  return (
    <main className="flex min-h-screen items-center justify-center px-6">
      <form
        onSubmit={submit}
        className="w-full max-w-sm rounded-2xl border border-white/10 bg-stage-800/80 p-8 shadow-2xl"
      >
        <Lock className="size-8 text-spotlight-400" aria-hidden />
        <h1 className="mt-4 text-2xl font-bold text-white">Admin Login</h1>
        <p className="mt-1 mb-6 text-sm text-zinc-400">Enter the admin password to continue.</p>
        <InputField
          id="admin-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          {...passwordInput}
        />
        <SubmitButton
          className="mt-6 w-full"
          disabled={!password}
          pending={login.isPending}
          pendingLabel="Verifying..."
        >
          Login
        </SubmitButton>
      </form>
    </main>
  );
}
