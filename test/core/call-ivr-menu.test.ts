import { describe, expect, it } from 'vitest';
import { chooseMenuOption, menuOptions } from '../../src/core/calls/ivr-menu.js';

const MENU =
  'Thank you for calling. For billing and payments, press 2. To report a claim, press 3. ' +
  'For all other questions, press star. To speak with a representative, press zero.';

describe('IVR menus › reading options', () => {
  it('finds every "press N" option with its words, whichever way round it is said', () => {
    expect(menuOptions(MENU)).toEqual([
      { digits: '2', label: 'for billing and payments' },
      { digits: '3', label: 'to report a claim' },
      { digits: '*', label: 'for all other questions' },
      { digits: '0', label: 'to speak with a representative' },
    ]);
    expect(menuOptions('Press 1 for English, press two for Spanish. Or dial pound to repeat.')).toEqual([
      { digits: '1', label: 'for english' },
      { digits: '2', label: 'for spanish' },
      { digits: '#', label: 'or to repeat' },
    ]);
  });

  it('finds nothing in a prompt without options', () => {
    expect(menuOptions('Your call is important to us. Please hold.')).toEqual([]);
  });
});

describe('IVR menus › choosing by intent', () => {
  it('picks the option sharing the most words with the intent', () => {
    expect(chooseMenuOption(MENU, 'dispute a charge on my bill payment')).toEqual({
      digits: '2',
      label: 'for billing and payments',
    });
    expect(chooseMenuOption(MENU, 'I need to report a car accident claim')).toMatchObject({ digits: '3' });
  });

  it('falls back to a person when nothing matches', () => {
    expect(chooseMenuOption(MENU, 'change my mailing address')).toMatchObject({ digits: '0' });
    expect(
      chooseMenuOption('For sales, press 1. To reach an agent, press 9.', 'opening hours'),
    ).toMatchObject({
      digits: '9',
    });
  });

  it('chooses nothing when neither words nor a person match', () => {
    expect(chooseMenuOption('For sales, press 1.', 'opening hours')).toBeUndefined();
    expect(chooseMenuOption('Please hold.', 'billing')).toBeUndefined();
  });
});
