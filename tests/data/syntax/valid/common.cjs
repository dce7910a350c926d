"use strict";
const path = require("path");
const { promisify } = require("util");

module.exports = function resolve(name, options = {}) {
  const base = options.base || __dirname;
  return path.join(base, name);
};
module.exports.delay = promisify(setTimeout);
exports.version = "1.0.0";
