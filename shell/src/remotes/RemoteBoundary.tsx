import { Component, Suspense, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { useLocation, useNavigate, useNavigation, useRouteError } from '@portal/web-kit';
import { PageLoading } from '../app/PageLoading';
import { RemoteErrorPanel } from './RemoteErrorPanel';

interface BoundaryProps {
  /** Changing it (another page) clears a caught error. */
  resetKey: string;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
}

/** Catches what a remote's screens throw while rendering, so only their part of the page fails. */
class RemoteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A remote screen failed.', error, info.componentStack);
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  override render() {
    if (this.state.failed) return <RemoteErrorPanel onRetry={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}

/** Suspense and an error boundary around a remote's routes. */
export function RemoteBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <RemoteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageLoading />}>{children}</Suspense>
    </RemoteErrorBoundary>
  );
}

/** Navigates to where we are, which loads again whatever failed on the way here. */
export function useLoadAgain(): { loadAgain: () => void; loading: boolean } {
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  return {
    loadAgain: () => void navigate(location, { replace: true, state: location.state }),
    loading: navigation.state !== 'idle',
  };
}

/** The route error element of a remote's routes (a failing loader or action). */
export function RemoteRouteError() {
  const error = useRouteError();
  const { loadAgain, loading } = useLoadAgain();
  useEffect(() => console.error('A remote route failed.', error), [error]);
  return <RemoteErrorPanel onRetry={loadAgain} retrying={loading} />;
}
