import {
  ADMIN_API,
  type AdminUser,
  type UserAnswer,
  type UsersAnswer,
  type UsersPage,
  type UserUpdateBody,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';
import { successfulAnswer } from './answers';
import type { PageForModelParams } from '../grid/pageForModel';

/** How many users the admin pickers offer for one search. */
const USER_SEARCH_LIMIT = 25;

/** Users administration (spec 03 §7 "Administration"): the paged list, search, update and delete. */
export const usersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET page-for-model with modelName=users. */
    usersPage: build.query<UsersPage, PageForModelParams>({
      query: (params) => ({ url: ADMIN_API.pageForModel, params }),
      providesTags: (page) => [
        { type: 'User', id: 'PAGE' },
        ...(page?.docs ?? []).map((user) => ({ type: 'User' as const, id: user._id })),
      ],
    }),
    /** GET users?search=: users whose name or e-mail contains the text, for the admin pickers. */
    searchUsers: build.query<AdminUser[], string>({
      queryFn: (search, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.users, params: { search, limit: String(USER_SEARCH_LIMIT) } },
          (answer: UsersAnswer) => answer.users,
        ),
      providesTags: [{ type: 'User', id: 'SEARCH' }],
    }),
    /** POST user/{id}: a cell edit sends just what changed. */
    updateUser: build.mutation<AdminUser, { id: string; changes: UserUpdateBody }>({
      queryFn: ({ id, changes }, _api, _extra, baseQuery) =>
        successfulAnswer(
          baseQuery,
          { url: ADMIN_API.user(id), method: 'POST', body: changes },
          (answer: UserAnswer) => answer.user,
        ),
      invalidatesTags: (_user, _error, { id }) => [
        { type: 'User', id },
        { type: 'User', id: 'SEARCH' },
        { type: 'Group', id: 'PAGE' },
      ],
    }),
    /** DELETE user/{id}; the user's requests stay. */
    deleteUser: build.mutation<void, string>({
      query: (id) => ({ url: ADMIN_API.user(id), method: 'DELETE' }),
      invalidatesTags: [
        { type: 'User', id: 'PAGE' },
        { type: 'User', id: 'SEARCH' },
        { type: 'Group', id: 'PAGE' },
      ],
    }),
  }),
});

export const { useUsersPageQuery, useSearchUsersQuery, useUpdateUserMutation, useDeleteUserMutation } =
  usersApi;
