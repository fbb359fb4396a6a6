// Entry point for `esbuild --bundle --metafile`: a small express service calling a remote API.
const express = require("express");
const axios = require("axios");

const app = express();
app.get("/rates/:currency", async (req, res) => {
  const { data } = await axios.get(`http://127.0.0.1:9/rates/${encodeURIComponent(req.params.currency)}`);
  res.json(data);
});
module.exports = app;
