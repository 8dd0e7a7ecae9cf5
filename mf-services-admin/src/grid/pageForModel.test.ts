import { pageForModelParams, type GridQuery, type ServerFields } from './pageForModel';

const FIELDS: ServerFields = {
  name: {},
  group: { sortBy: 'groupName' },
  admin: { type: 'boolean' },
  professionalFeePercentage: { type: 'number' },
};

const query = (overrides: Partial<GridQuery> = {}): GridQuery => ({
  page: 0,
  pageSize: 20,
  sortModel: [],
  filterModel: { items: [] },
  ...overrides,
});

describe('page-for-model parameters from a grid (spec 03 §7)', () => {
  it('numbers pages from 1 and carries the page size', () => {
    expect(pageForModelParams('users', query({ page: 2, pageSize: 500 }), FIELDS)).toEqual({
      modelName: 'users',
      pageNumber: '3',
      pageSize: '500',
    });
  });

  it('sends the sort as JSON [[field, direction]], the group column by group name', () => {
    const params = pageForModelParams(
      'users',
      query({ sortModel: [{ field: 'group', sort: 'desc' }] }),
      FIELDS,
    );
    expect(JSON.parse(params.sort)).toEqual([['groupName', 'desc']]);
  });

  it('leaves out a sort on a column the server does not know, or without a direction', () => {
    const params = pageForModelParams(
      'users',
      query({
        sortModel: [
          { field: 'services', sort: 'asc' },
          { field: 'name', sort: null },
        ],
      }),
      FIELDS,
    );
    expect(params.sort).toBeUndefined();
  });

  it('sends each filter as {field}={"compareBy","compareTo"}', () => {
    const params = pageForModelParams(
      'users',
      query({ filterModel: { items: [{ field: 'name', operator: 'contains', value: 'Botha' }] } }),
      FIELDS,
    );
    expect(JSON.parse(params.name)).toEqual({ compareBy: 'contains', compareTo: 'Botha' });
  });

  it('turns a boolean filter into true or false, and a number filter into a number', () => {
    const params = pageForModelParams(
      'groups',
      query({
        filterModel: {
          items: [
            { field: 'admin', operator: 'is', value: 'true' },
            { field: 'professionalFeePercentage', operator: '>=', value: '12.5' },
          ],
        },
      }),
      FIELDS,
    );
    expect(JSON.parse(params.admin)).toEqual({ compareBy: 'is', compareTo: true });
    expect(JSON.parse(params.professionalFeePercentage)).toEqual({ compareBy: '>=', compareTo: 12.5 });
  });

  it('sends isEmpty and isNotEmpty without a value', () => {
    const params = pageForModelParams(
      'users',
      query({ filterModel: { items: [{ field: 'name', operator: 'isEmpty' }] } }),
      FIELDS,
    );
    expect(JSON.parse(params.name)).toEqual({ compareBy: 'isEmpty' });
  });

  it('leaves out filters still being typed, on unknown columns, or with operators the server lacks', () => {
    const params = pageForModelParams(
      'users',
      query({
        filterModel: {
          items: [
            { field: 'name', operator: 'contains', value: '' },
            { field: 'admin', operator: 'is', value: '' },
            { field: 'professionalFeePercentage', operator: '>', value: 'abc' },
            { field: 'password', operator: 'contains', value: 'x' },
            { field: 'name', operator: 'isAnyOf', value: ['a'] },
          ],
        },
      }),
      FIELDS,
    );
    expect(Object.keys(params).sort()).toEqual(['modelName', 'pageNumber', 'pageSize']);
  });
});
