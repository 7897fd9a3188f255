SELECT "My Col", `back``tick`, `select` FROM "t";
