import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { endSession, LOGIN_PATH, useLogoutMutation } from '../api/baseApi';
import { useAppDispatch } from '../store/store';

/** Logs out: GET logout, then clear the store and go to the login page. */
export function useLogout(): () => Promise<void> {
  const [logout] = useLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    // The local session ends even if the call fails: the user asked to leave.
    await logout();
    dispatch(endSession());
    await navigate(LOGIN_PATH, { replace: true });
  }, [logout, dispatch, navigate]);
}
