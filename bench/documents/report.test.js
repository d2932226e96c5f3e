'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { GOALS, shortfall } = require('./report');

const goal = (start) => GOALS.find((g) => g.label.startsWith(start));

describe('report: how far a missed goal is', () => {
  it('says the points between a share and its bound, whichever side the bound is on', () => {
    assert.equal(shortfall({ ...goal('answerable'), value: 52.3 }), ' by 22.7 points');
    assert.equal(shortfall({ ...goal('unanswerable'), value: 25 }), ' by 15.0 points');
  });

  it('says milliseconds for the job time, and nothing when there is no value', () => {
    assert.equal(shortfall({ ...goal('QA job'), value: 2500 }), ' by 500 ms');
    assert.equal(shortfall({ ...goal('answerable'), value: null }), '');
  });
});
