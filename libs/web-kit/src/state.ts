/**
 * The portal's one state API beside its store: what the shell's and the remotes' slices and queries use of
 * Redux Toolkit, from here and never from '@reduxjs/toolkit' itself (ESLint says so in shell/ and mf-*).
 * Like the router (router.ts): web-kit is a federation singleton, so Redux Toolkit inside it exists once,
 * and — unlike a shared '@reduxjs/toolkit', which federation cannot tree-shake — only what web-kit uses
 * and lists here reaches the browser (~6 KB less compressed on every screen: the listener middleware,
 * entity adapters and the rest no screen uses stay out). A remote that needs more of Redux Toolkit adds
 * it here, and it ships with the shell.
 */
export { createAction, createSlice, isAnyOf, nanoid } from '@reduxjs/toolkit';
export type { PayloadAction } from '@reduxjs/toolkit';
export { skipToken } from '@reduxjs/toolkit/query';
export type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
