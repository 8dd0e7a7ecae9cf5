import {
  ADMIN_API,
  type AdminGroup,
  type GroupAnswer,
  type GroupBody,
  type GroupsAnswer,
  type GroupsPage,
  type GroupUpdateBody,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';
import { successfulAnswer } from './answers';
import type { PageForModelParams } from '../grid/pageForModel';

/** Groups administration (spec 03 §7 "Administration"): paged list, full list, create, update, delete. */
export const groupsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET page-for-model with modelName=groups. */
    groupsPage: build.query<GroupsPage, PageForModelParams>({
      query: (params) => ({ url: ADMIN_API.pageForModel, params }),
      providesTags: (page) => [
        { type: 'Group', id: 'PAGE' },
        ...(page?.docs ?? []).map((group) => ({ type: 'Group' as const, id: group._id })),
      ],
    }),
    /** GET groups: every group, for the group pickers (there are few). */
    allGroups: build.query<AdminGroup[], void>({
      queryFn: (_arg, _api, _extra, baseQuery) =>
        successfulAnswer(baseQuery, ADMIN_API.groups, (answer: GroupsAnswer) => answer.groups),
      providesTags: [{ type: 'Group', id: 'LIST' }],
    }),
    /** PUT groups. */
    createGroup: build.mutation<AdminGroup, GroupBody>({
      queryFn: (body, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.groups, method: 'PUT', body },
          (answer: GroupAnswer) => answer.group,
        ),
      invalidatesTags: [
        { type: 'Group', id: 'PAGE' },
        { type: 'Group', id: 'LIST' },
      ],
    }),
    /** POST group/{id}: the fields that changed. A new name shows in the users' group column too. */
    updateGroup: build.mutation<AdminGroup, { id: string; changes: GroupUpdateBody }>({
      queryFn: ({ id, changes }, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.group(id), method: 'POST', body: changes },
          (answer: GroupAnswer) => answer.group,
        ),
      invalidatesTags: (_group, _error, { id }) => [
        { type: 'Group', id },
        { type: 'Group', id: 'LIST' },
        { type: 'User', id: 'PAGE' },
      ],
    }),
    /** DELETE group/{id}; refused while the group has users. */
    deleteGroup: build.mutation<void, string>({
      query: (id) => ({ url: ADMIN_API.group(id), method: 'DELETE' }),
      invalidatesTags: [
        { type: 'Group', id: 'PAGE' },
        { type: 'Group', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useGroupsPageQuery,
  useAllGroupsQuery,
  useCreateGroupMutation,
  useUpdateGroupMutation,
  useDeleteGroupMutation,
} = groupsApi;
