import { useState } from 'react';
import Switch from '@mui/material/Switch';
import { useNotify } from '@portal/web-kit';
import { failureText } from '../../../api/answers';
import { serviceLabel } from '../../../constants';
import { ADMIN_TEXT } from '../../../texts';
import {
  useAddGroupServiceMutation,
  useAddUserServiceMutation,
  useRemoveGroupServiceMutation,
  useRemoveUserServiceMutation,
} from '../../../api/serviceAssignmentApi';

interface ServiceSwitchProps {
  owner: 'group' | 'user';
  id: string;
  /** The group's or user's name, for the switch's accessible label. */
  ownerName: string;
  service: string;
  assigned: boolean;
}

/** Turns one service on or off for a group or a user at once (spec 03 "Services admin screen"). */
export function ServiceSwitch({ owner, id, ownerName, service, assigned }: ServiceSwitchProps) {
  const notify = useNotify();
  const [addGroupService, addingToGroup] = useAddGroupServiceMutation();
  const [removeGroupService, removingFromGroup] = useRemoveGroupServiceMutation();
  const [addUserService, addingToUser] = useAddUserServiceMutation();
  const [removeUserService, removingFromUser] = useRemoveUserServiceMutation();
  const saving = [addingToGroup, removingFromGroup, addingToUser, removingFromUser].some((s) => s.isLoading);
  // What was asked for shows at once, until the list, read again after the change, brings the new state.
  const [requested, setRequested] = useState<{ assign: boolean; from: boolean } | null>(null);
  const checked = requested && requested.from === assigned ? requested.assign : assigned;

  const change = async (assign: boolean) => {
    setRequested({ assign, from: assigned });
    const call =
      owner === 'group'
        ? assign
          ? addGroupService
          : removeGroupService
        : assign
          ? addUserService
          : removeUserService;
    const result = await call({ id, service });
    if (result.error) {
      setRequested(null);
      notify({ message: failureText(ADMIN_TEXT.failedToChangeService, result.error), severity: 'error' });
    }
  };

  return (
    <Switch
      size="small"
      checked={checked}
      disabled={saving}
      onChange={(_event, checked) => void change(checked)}
      slotProps={{ input: { 'aria-label': `${serviceLabel(service)} for ${ownerName}` } }}
    />
  );
}
