import { fireEvent, screen, waitFor } from '@testing-library/react';
import { REPORTBUILDER_API, type AddressDetailsAnswer } from '@portal/contracts';
import {
  answerFetch,
  errorAnswer,
  json,
  meAnswer,
  operatorUser,
  REQUEST_ID,
} from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';

beforeEach(() => sessionStorage.clear());

function addressServer() {
  const state = {
    address: {
      ID: REQUEST_ID,
      location: '12 Church Street',
      suburbTownCity: 'Dorp, Stellenbosch',
      suburb: 'Dorp',
      town: 'Stellenbosch',
      province: 'Western Cape',
      coordinates: { lat: -33.9321, lng: 18.8602 },
      version: 3,
    } as AddressDetailsAnswer,
    bodies: [] as Record<string, unknown>[],
  };
  const answers = {
    [`GET ${REPORTBUILDER_API.addressDetails(REQUEST_ID)}`]: () => json(200, state.address),
    [`POST ${REPORTBUILDER_API.saveAddress}`]: async (request: Request) => {
      const body = (await request.json()) as {
        version?: number;
        addressDetails: { location: string; suburbTownCity: string };
      };
      state.bodies.push(body);
      if (body.version !== state.address.version)
        return errorAnswer(409, 'The report was changed meanwhile: reload it and make your change again.');
      state.address = { ...state.address, ...body.addressDetails, version: state.address.version + 1 };
      return json(200, state.address);
    },
  };
  return { state, answers };
}

const at = `/reportbuilder/edit-report-address?requestID=${REQUEST_ID}`;

describe('edit-report-address (spec 02 §2.1)', () => {
  it('shows the current address, checks the new one and saves it with the version', async () => {
    const server = addressServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at);
    expect((await screen.findByTestId('current-location')).textContent).toBe('12 Church Street');
    expect(screen.getByTestId('current-suburb-town-city').textContent).toBe('Dorp, Stellenbosch');
    const location = screen.getByLabelText('New location');
    const suburb = screen.getByLabelText('New suburb, town or city');
    fireEvent.change(location, { target: { value: ' ' } });
    fireEvent.change(suburb, { target: { value: 'x'.repeat(501) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter the location.')).toBeTruthy();
    expect(screen.getByText('At most 500 characters.')).toBeTruthy();
    expect(server.state.bodies).toEqual([]);

    fireEvent.change(location, { target: { value: ' 14 Church Street ' } });
    fireEvent.change(suburb, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter the suburb, town or city.')).toBeTruthy();
    fireEvent.change(suburb, { target: { value: 'Die Boord, Stellenbosch' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The address was saved.')).toBeTruthy();
    expect(server.state.bodies).toEqual([
      {
        requestID: REQUEST_ID,
        addressDetails: { location: '14 Church Street', suburbTownCity: 'Die Boord, Stellenbosch' },
        version: 3,
      },
    ]);
    await waitFor(() => expect(screen.getByTestId('current-location').textContent).toBe('14 Church Street'));
    expect(screen.getByTestId('current-suburb-town-city').textContent).toBe('Die Boord, Stellenbosch');
  });

  it('on a 409 reloads the address and says the change was not saved', async () => {
    const server = addressServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at);
    fireEvent.change(await screen.findByLabelText('New location'), { target: { value: '1 Main Road' } });
    server.state.address = { ...server.state.address, location: '2 Main Road', version: 8 };
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Someone else changed this report meanwhile/)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('current-location').textContent).toBe('2 Main Road'));
    expect((screen.getByLabelText('New location') as HTMLInputElement).value).toBe('2 Main Road');
  });
});
