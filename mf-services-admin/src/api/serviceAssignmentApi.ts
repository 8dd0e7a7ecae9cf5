import { ADMIN_API, type ServiceListAnswer } from '@portal/contracts';
import { baseApi } from '@portal/web-kit';
import { successfulAnswer } from './answers';

interface Assignment {
  /** The group's or the user's id. */
  id: string;
  /** A service identifier: avs, iris, savi or spatialkey. */
  service: string;
}

/**
 * Adding and removing a service for a group or a user (spec 03 §7). Each answers the services now
 * assigned. The home tiles ('Services') may change with them: the admin may be in that group.
 */
export const serviceAssignmentApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    addGroupService: build.mutation<string[], Assignment>({
      queryFn: ({ id, service }, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.groupServices(id), method: 'POST', body: { service } },
          (answer: ServiceListAnswer) => answer.services,
        ),
      invalidatesTags: (_services, _error, { id }) => [{ type: 'Group', id }, 'Services'],
    }),
    removeGroupService: build.mutation<string[], Assignment>({
      queryFn: ({ id, service }, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.groupService(id, service), method: 'DELETE' },
          (answer: ServiceListAnswer) => answer.services,
        ),
      invalidatesTags: (_services, _error, { id }) => [{ type: 'Group', id }, 'Services'],
    }),
    addUserService: build.mutation<string[], Assignment>({
      queryFn: ({ id, service }, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.userServices(id), method: 'POST', body: { service } },
          (answer: ServiceListAnswer) => answer.services,
        ),
      invalidatesTags: (_services, _error, { id }) => [{ type: 'User', id }, 'Services'],
    }),
    removeUserService: build.mutation<string[], Assignment>({
      queryFn: ({ id, service }, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.userService(id, service), method: 'DELETE' },
          (answer: ServiceListAnswer) => answer.services,
        ),
      invalidatesTags: (_services, _error, { id }) => [{ type: 'User', id }, 'Services'],
    }),
  }),
});

export const {
  useAddGroupServiceMutation,
  useRemoveGroupServiceMutation,
  useAddUserServiceMutation,
  useRemoveUserServiceMutation,
} = serviceAssignmentApi;
