// A small real workload for `node --cpu-prof` and an entry point for `esbuild --metafile`.
const _ = require("lodash");
const moment = require("moment");
const minimist = require("minimist");

const args = minimist(process.argv.slice(2), { default: { orders: 50000 } });
const orders = [];
for (let i = 0; i < args.orders; i++) {
  orders.push({
    id: i,
    customer: `c${i % 997}`,
    total: Math.round(((i * 7919) % 10007) * 1.37) / 100,
    placedAt: moment.utc("2026-01-01").add(i * 13, "minutes"),
  });
}
const byDay = _.groupBy(orders, (o) => o.placedAt.format("YYYY-MM-DD"));
const days = _.map(byDay, (list, day) => ({ day, count: list.length, revenue: _.sumBy(list, "total") }));
const top = _.take(_.orderBy(days, ["revenue"], ["desc"]), 3);
console.log(JSON.stringify(top));
