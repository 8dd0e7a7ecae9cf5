import { RequireRole, type RouteObject } from '@portal/web-kit';
import { EDITOR_ROLES } from './access';
import { PATHS } from './paths';

/**
 * What the shell patches into its router when /avs/editor is first visited (it wins over the locator's
 * /avs as the longer prefix). The shell lets in the remote's roles from /remotes.json; the page checks
 * them again (spec 03 §1: operators). The page loads on first use.
 */
export const routes: RouteObject[] = [
  {
    path: PATHS.editor,
    lazy: async () => {
      const { EditorPage } = await import('./features/editor/routes/EditorPage');
      return {
        element: (
          <RequireRole roles={EDITOR_ROLES}>
            <EditorPage />
          </RequireRole>
        ),
      };
    },
  },
];

export default routes;
