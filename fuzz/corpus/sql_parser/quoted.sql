SELECT "a string", 'it\'s', `My Col`, `back``tick`, `select` FROM `t`;
