import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import './styles.css';

// A transition: the first render yields to the browser every few milliseconds instead of holding the
// main thread for the whole page, so the server's first paint stays responsive while the app takes over.
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
