#include "tpch/dbgen.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "columnar/type.h"
#include "columnar/vector.h"
#include "io/file_system.h"
#include "parquet/file_writer.h"
#include "tpch/text_pool.h"
#include "tpch/tpch_words.h"

namespace shoal::tpch {

namespace c = shoal::columnar;

namespace {

// Table ids seed the random streams; column ids are the column's position in its table.
enum TableId : uint64_t { kPart = 1, kSupplier, kPartSupp, kCustomer, kOrders, kLineitem, kNation, kRegion };

c::TypePtr Money() { return c::Decimal(15, 2); }

c::SchemaPtr MakeSchema(std::vector<std::pair<const char*, c::TypePtr>> cols) {
  auto s = std::make_shared<c::Schema>();
  for (auto& [name, type] : cols) s->fields.push_back(c::Field{name, type, false});
  return s;
}

const c::SchemaPtr& SchemaOf(const std::string& table) {
  static const std::map<std::string, c::SchemaPtr> schemas = {
      {"part", MakeSchema({{"p_partkey", c::Int64()}, {"p_name", c::String()}, {"p_mfgr", c::String()},
                           {"p_brand", c::String()}, {"p_type", c::String()}, {"p_size", c::Int32()},
                           {"p_container", c::String()}, {"p_retailprice", Money()}, {"p_comment", c::String()}})},
      {"supplier", MakeSchema({{"s_suppkey", c::Int64()}, {"s_name", c::String()}, {"s_address", c::String()},
                               {"s_nationkey", c::Int64()}, {"s_phone", c::String()}, {"s_acctbal", Money()},
                               {"s_comment", c::String()}})},
      {"partsupp", MakeSchema({{"ps_partkey", c::Int64()}, {"ps_suppkey", c::Int64()}, {"ps_availqty", c::Int32()},
                               {"ps_supplycost", Money()}, {"ps_comment", c::String()}})},
      {"customer", MakeSchema({{"c_custkey", c::Int64()}, {"c_name", c::String()}, {"c_address", c::String()},
                               {"c_nationkey", c::Int64()}, {"c_phone", c::String()}, {"c_acctbal", Money()},
                               {"c_mktsegment", c::String()}, {"c_comment", c::String()}})},
      {"orders", MakeSchema({{"o_orderkey", c::Int64()}, {"o_custkey", c::Int64()}, {"o_orderstatus", c::String()},
                             {"o_totalprice", Money()}, {"o_orderdate", c::Date()}, {"o_orderpriority", c::String()},
                             {"o_clerk", c::String()}, {"o_shippriority", c::Int32()}, {"o_comment", c::String()}})},
      {"lineitem",
       MakeSchema({{"l_orderkey", c::Int64()}, {"l_partkey", c::Int64()}, {"l_suppkey", c::Int64()},
                   {"l_linenumber", c::Int32()}, {"l_quantity", Money()}, {"l_extendedprice", Money()},
                   {"l_discount", Money()}, {"l_tax", Money()}, {"l_returnflag", c::String()},
                   {"l_linestatus", c::String()}, {"l_shipdate", c::Date()}, {"l_commitdate", c::Date()},
                   {"l_receiptdate", c::Date()}, {"l_shipinstruct", c::String()}, {"l_shipmode", c::String()},
                   {"l_comment", c::String()}})},
      {"nation", MakeSchema({{"n_nationkey", c::Int64()}, {"n_name", c::String()}, {"n_regionkey", c::Int64()},
                             {"n_comment", c::String()}})},
      {"region", MakeSchema({{"r_regionkey", c::Int64()}, {"r_name", c::String()}, {"r_comment", c::String()}})},
  };
  return schemas.at(table);
}

// Columns of one batch under construction.
struct BatchBuilder {
  explicit BatchBuilder(const c::SchemaPtr& s, int64_t capacity) : schema(s) {
    for (const auto& f : s->fields) cols.push_back(c::Vector::Make(f.type, capacity));
  }
  c::Vector& operator[](size_t i) { return *cols[i]; }
  c::RecordBatch Finish() {
    const int64_t n = cols.empty() ? 0 : cols[0]->size();
    return c::RecordBatch(schema, std::move(cols), n);
  }
  c::SchemaPtr schema;
  std::vector<c::VectorPtr> cols;
};

// Writes one table's batches to <dir>/<table>/<table>-<n>.parquet, a new file every
// max_rows_per_file rows (at batch boundaries).
class TableSink {
 public:
  TableSink(std::shared_ptr<io::FileSystem> fs, const DbgenOptions& o, std::string table)
      : fs_(std::move(fs)), options_(o), table_(std::move(table)) {}

  Status Write(const c::RecordBatch& batch) {
    if (batch.num_rows == 0) return Status::OK();
    if (writer_ && writer_->rows_written() >= options_.max_rows_per_file) RETURN_NOT_OK(CloseFile());
    if (!writer_) {
      const std::string dir = options_.out_dir + "/" + table_;
      RETURN_NOT_OK(fs_->CreateDirs(dir));
      char name[64];
      std::snprintf(name, sizeof name, "/%s-%03d.parquet", table_.c_str(), files_++);
      ASSIGN_OR_RETURN(writer_, parquet::ParquetWriter::Open(fs_, dir + name, *batch.schema));
    }
    rows_ += batch.num_rows;
    return writer_->WriteBatch(batch);
  }
  Status Close() { return writer_ ? CloseFile() : Status::OK(); }
  int64_t rows() const { return rows_; }

 private:
  Status CloseFile() {
    auto meta = writer_->Close();
    writer_.reset();
    return meta.status();
  }
  std::shared_ptr<io::FileSystem> fs_;
  const DbgenOptions& options_;
  std::string table_;
  std::unique_ptr<parquet::ParquetWriter> writer_;
  int files_ = 0;
  int64_t rows_ = 0;
};

std::string KeyName(const char* prefix, int64_t key) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%09lld", prefix, static_cast<long long>(key));
  return buf;
}

// Clause 4.2.2.9: CC-nnn-nnn-nnnn, country code = nationkey + 10.
std::string Phone(Rng& rng, int64_t nationkey) {
  char buf[32];
  const int64_t a = rng.Uniform(100, 999), b = rng.Uniform(100, 999), d = rng.Uniform(1000, 9999);
  std::snprintf(buf, sizeof buf, "%02lld-%03lld-%03lld-%04lld", static_cast<long long>(nationkey + 10),
                static_cast<long long>(a), static_cast<long long>(b), static_cast<long long>(d));
  return buf;
}

// Clause 4.2.3: p_retailprice, in cents.
int64_t RetailPriceCents(int64_t partkey) { return 90000 + ((partkey / 10) % 20001) + 100 * (partkey % 1000); }

// Clause 4.2.3: the i-th (0..3) supplier of a part.
int64_t PartSupplier(int64_t partkey, int64_t i, int64_t suppliers) {
  return (partkey + (i * ((suppliers / 4) + (partkey - 1) / suppliers))) % suppliers + 1;
}

struct Counts {
  int64_t part, supplier, customer, orders, clerks;
};

Counts CountsFor(double sf) {
  return {SpecRowCount("part", sf), SpecRowCount("supplier", sf), SpecRowCount("customer", sf),
          SpecRowCount("orders", sf), std::max<int64_t>(1, std::llround(sf * 1000))};
}

Status GenRegion(TableSink& sink) {
  BatchBuilder b(SchemaOf("region"), 5);
  for (int64_t i = 0; i < 5; ++i) {
    Rng rng(kRegion, 2, i);
    b[0].Append<int64_t>(i);
    b[1].AppendString(kRegions[i]);
    b[2].AppendString(Text(rng, 31, 115));
  }
  return sink.Write(b.Finish());
}

Status GenNation(TableSink& sink) {
  BatchBuilder b(SchemaOf("nation"), 25);
  for (int64_t i = 0; i < 25; ++i) {
    Rng rng(kNation, 3, i);
    b[0].Append<int64_t>(i);
    b[1].AppendString(kNations[i].name);
    b[2].Append<int64_t>(kNations[i].region);
    b[3].AppendString(Text(rng, 31, 114));
  }
  return sink.Write(b.Finish());
}

Status GenPart(const Counts& n, int64_t batch, TableSink& sink) {
  std::string s;
  for (int64_t lo = 0; lo < n.part; lo += batch) {
    const int64_t hi = std::min(n.part, lo + batch);
    BatchBuilder b(SchemaOf("part"), hi - lo);
    for (int64_t i = lo; i < hi; ++i) {
      const int64_t key = i + 1;
      b[0].Append<int64_t>(key);
      {  // p_name: five distinct colour words
        Rng rng(kPart, 1, i);
        size_t picked[5];
        s.clear();
        for (int w = 0; w < 5; ++w) {
          size_t k;
          do k = rng.Next() % kColors.size(); while (std::find(picked, picked + w, k) != picked + w);
          picked[w] = k;
          if (w) s.push_back(' ');
          s.append(kColors[k]);
        }
        b[1].AppendString(s);
      }
      Rng mfgr(kPart, 2, i);
      const int64_t m = mfgr.Uniform(1, 5);
      b[2].AppendString("Manufacturer#" + std::to_string(m));
      b[3].AppendString("Brand#" + std::to_string(m) + std::to_string(mfgr.Uniform(1, 5)));
      Rng type(kPart, 4, i);
      s.assign(kTypeSyllable1[type.Next() % 6]);
      s.append(" ").append(kTypeSyllable2[type.Next() % 5]).append(" ").append(kTypeSyllable3[type.Next() % 5]);
      b[4].AppendString(s);
      Rng size(kPart, 5, i);
      b[5].Append<int32_t>(static_cast<int32_t>(size.Uniform(1, 50)));
      Rng cont(kPart, 6, i);
      s.assign(kContainerSyllable1[cont.Next() % 5]);
      s.append(" ").append(kContainerSyllable2[cont.Next() % 8]);
      b[6].AppendString(s);
      b[7].Append<int64_t>(RetailPriceCents(key));
      Rng comment(kPart, 8, i);
      b[8].AppendString(Text(comment, 5, 22));
    }
    RETURN_NOT_OK(sink.Write(b.Finish()));
  }
  return Status::OK();
}

// Overwrites, at a random position of *text, "Customer" and later `tail` (both kept inside the
// text, its length unchanged): clause 4.2.3's s_comment rows matching "Customer%Complaints" or
// "Customer%Recommends".
void EmbedCustomerWords(Rng& rng, std::string_view tail, std::string* text) {
  constexpr std::string_view kHead = "Customer";
  const int64_t free = static_cast<int64_t>(text->size() - kHead.size() - tail.size());
  const int64_t gap = rng.Uniform(0, free);
  const int64_t start = rng.Uniform(0, free - gap);
  text->replace(static_cast<size_t>(start), kHead.size(), kHead);
  text->replace(static_cast<size_t>(start) + kHead.size() + static_cast<size_t>(gap), tail.size(), tail);
}

Status GenSupplier(const Counts& n, int64_t batch, TableSink& sink) {
  // One supplier in every 2000 (SF * 5 of them) gets "Customer%Complaints", another one
  // "Customer%Recommends"; at least one of each below SF 0.2.
  constexpr int64_t kBlock = 2000;
  std::string s;
  for (int64_t lo = 0; lo < n.supplier; lo += batch) {
    const int64_t hi = std::min(n.supplier, lo + batch);
    BatchBuilder b(SchemaOf("supplier"), hi - lo);
    for (int64_t i = lo; i < hi; ++i) {
      const int64_t key = i + 1;
      b[0].Append<int64_t>(key);
      b[1].AppendString(KeyName("Supplier#", key));
      Rng addr(kSupplier, 2, i);
      s.clear();
      VString(addr, 10, 40, &s);
      b[2].AppendString(s);
      Rng nat(kSupplier, 3, i);
      const int64_t nation = nat.Uniform(0, 24);
      b[3].Append<int64_t>(nation);
      Rng phone(kSupplier, 4, i);
      b[4].AppendString(Phone(phone, nation));
      Rng bal(kSupplier, 5, i);
      b[5].Append<int64_t>(bal.Uniform(-99999, 999999));
      Rng comment(kSupplier, 6, i);
      s.assign(Text(comment, 25, 100));
      const int64_t block = i / kBlock, block_len = std::min(kBlock, n.supplier - block * kBlock);
      Rng pick(kSupplier, 7, static_cast<uint64_t>(block));
      const int64_t complaint = pick.Uniform(0, block_len - 1);
      int64_t recommend = pick.Uniform(0, block_len - 1);
      if (recommend == complaint && block_len > 1) recommend = (recommend + 1) % block_len;
      if (i - block * kBlock == complaint) EmbedCustomerWords(comment, "Complaints", &s);
      else if (i - block * kBlock == recommend) EmbedCustomerWords(comment, "Recommends", &s);
      b[6].AppendString(s);
    }
    RETURN_NOT_OK(sink.Write(b.Finish()));
  }
  return Status::OK();
}

Status GenPartSupp(const Counts& n, int64_t batch, TableSink& sink) {
  const int64_t rows = n.part * 4;
  for (int64_t lo = 0; lo < rows; lo += batch) {
    const int64_t hi = std::min(rows, lo + batch);
    BatchBuilder b(SchemaOf("partsupp"), hi - lo);
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t partkey = r / 4 + 1;
      b[0].Append<int64_t>(partkey);
      b[1].Append<int64_t>(PartSupplier(partkey, r % 4, n.supplier));
      Rng qty(kPartSupp, 2, r);
      b[2].Append<int32_t>(static_cast<int32_t>(qty.Uniform(1, 9999)));
      Rng cost(kPartSupp, 3, r);
      b[3].Append<int64_t>(cost.Uniform(100, 100000));
      Rng comment(kPartSupp, 4, r);
      b[4].AppendString(Text(comment, 49, 198));
    }
    RETURN_NOT_OK(sink.Write(b.Finish()));
  }
  return Status::OK();
}

Status GenCustomer(const Counts& n, int64_t batch, TableSink& sink) {
  std::string s;
  for (int64_t lo = 0; lo < n.customer; lo += batch) {
    const int64_t hi = std::min(n.customer, lo + batch);
    BatchBuilder b(SchemaOf("customer"), hi - lo);
    for (int64_t i = lo; i < hi; ++i) {
      const int64_t key = i + 1;
      b[0].Append<int64_t>(key);
      b[1].AppendString(KeyName("Customer#", key));
      Rng addr(kCustomer, 2, i);
      s.clear();
      VString(addr, 10, 40, &s);
      b[2].AppendString(s);
      Rng nat(kCustomer, 3, i);
      const int64_t nation = nat.Uniform(0, 24);
      b[3].Append<int64_t>(nation);
      Rng phone(kCustomer, 4, i);
      b[4].AppendString(Phone(phone, nation));
      Rng bal(kCustomer, 5, i);
      b[5].Append<int64_t>(bal.Uniform(-99999, 999999));
      Rng seg(kCustomer, 6, i);
      b[6].AppendString(kSegments[seg.Next() % kSegments.size()]);
      Rng comment(kCustomer, 7, i);
      b[7].AppendString(Text(comment, 29, 116));
    }
    RETURN_NOT_OK(sink.Write(b.Finish()));
  }
  return Status::OK();
}

// Orders and their lineitems, generated together: o_totalprice and o_orderstatus derive from
// the order's lines.
Status GenOrdersAndLineitem(const Counts& n, int64_t batch, TableSink& orders, TableSink& lineitem) {
  const int64_t order_batch = std::max<int64_t>(1, batch / 4);
  // Customers whose key is divisible by 3 place no orders: index m of the others -> key.
  const int64_t ordering_customers = n.customer - n.customer / 3;
  for (int64_t lo = 0; lo < n.orders; lo += order_batch) {
    const int64_t hi = std::min(n.orders, lo + order_batch);
    BatchBuilder ob(SchemaOf("orders"), hi - lo);
    BatchBuilder lb(SchemaOf("lineitem"), (hi - lo) * 4);
    for (int64_t i = lo; i < hi; ++i) {
      // Sparse keys: the first 8 of every 32.
      const int64_t orderkey = (i / 8) * 32 + i % 8 + 1;
      Rng cust(kOrders, 1, i);
      const int64_t m = cust.Uniform(0, ordering_customers - 1);
      Rng date(kOrders, 4, i);
      const int32_t orderdate = static_cast<int32_t>(date.Uniform(kStartDate, kEndDate - 151));
      Rng lines(kLineitem, 3, i);
      const int64_t nlines = lines.Uniform(1, 7);
      __int128 total = 0;  // in 1/1,000,000 units: cents x (100+tax) x (100-discount)
      int shipped = 0;
      for (int64_t l = 0; l < nlines; ++l) {
        const uint64_t row = static_cast<uint64_t>(i) * 8 + static_cast<uint64_t>(l);
        lb[0].Append<int64_t>(orderkey);
        Rng part(kLineitem, 1, row);
        const int64_t partkey = part.Uniform(1, n.part);
        lb[1].Append<int64_t>(partkey);
        Rng supp(kLineitem, 2, row);
        lb[2].Append<int64_t>(PartSupplier(partkey, supp.Uniform(0, 3), n.supplier));
        lb[3].Append<int32_t>(static_cast<int32_t>(l + 1));
        Rng qty(kLineitem, 4, row);
        const int64_t quantity = qty.Uniform(1, 50);
        lb[4].Append<int64_t>(quantity * 100);
        const int64_t extended = quantity * RetailPriceCents(partkey);
        lb[5].Append<int64_t>(extended);
        Rng disc(kLineitem, 6, row);
        const int64_t discount = disc.Uniform(0, 10);
        lb[6].Append<int64_t>(discount);
        Rng taxr(kLineitem, 7, row);
        const int64_t tax = taxr.Uniform(0, 8);
        lb[7].Append<int64_t>(tax);
        total += static_cast<__int128>(extended) * (100 + tax) * (100 - discount);
        Rng ship(kLineitem, 10, row);
        const int32_t shipdate = orderdate + static_cast<int32_t>(ship.Uniform(1, 121));
        Rng commit(kLineitem, 11, row);
        const int32_t commitdate = orderdate + static_cast<int32_t>(commit.Uniform(30, 90));
        Rng receipt(kLineitem, 12, row);
        const int32_t receiptdate = shipdate + static_cast<int32_t>(receipt.Uniform(1, 30));
        Rng flag(kLineitem, 8, row);
        lb[8].AppendString(receiptdate <= kCurrentDate ? (flag.Next() % 2 ? "R" : "A") : "N");
        const bool open = shipdate > kCurrentDate;
        shipped += open ? 0 : 1;
        lb[9].AppendString(open ? "O" : "F");
        lb[10].Append<int32_t>(shipdate);
        lb[11].Append<int32_t>(commitdate);
        lb[12].Append<int32_t>(receiptdate);
        Rng instr(kLineitem, 13, row);
        lb[13].AppendString(kInstructions[instr.Next() % kInstructions.size()]);
        Rng mode(kLineitem, 14, row);
        lb[14].AppendString(kShipModes[mode.Next() % kShipModes.size()]);
        Rng comment(kLineitem, 15, row);
        lb[15].AppendString(Text(comment, 10, 43));
      }
      ob[0].Append<int64_t>(orderkey);
      ob[1].Append<int64_t>((m / 2) * 3 + m % 2 + 1);
      ob[2].AppendString(shipped == nlines ? "F" : shipped == 0 ? "O" : "P");
      ob[3].Append<int64_t>(static_cast<int64_t>((total + 5000) / 10000));  // to cents, half up
      ob[4].Append<int32_t>(orderdate);
      Rng prio(kOrders, 5, i);
      ob[5].AppendString(kPriorities[prio.Next() % kPriorities.size()]);
      Rng clerk(kOrders, 6, i);
      ob[6].AppendString(KeyName("Clerk#", clerk.Uniform(1, n.clerks)));
      ob[7].Append<int32_t>(0);
      Rng comment(kOrders, 8, i);
      ob[8].AppendString(Text(comment, 19, 78));
    }
    RETURN_NOT_OK(orders.Write(ob.Finish()));
    RETURN_NOT_OK(lineitem.Write(lb.Finish()));
  }
  return Status::OK();
}

}  // namespace

const std::vector<std::string>& TableNames() {
  static const std::vector<std::string> names = {"part",   "supplier", "partsupp", "customer",
                                                 "orders", "lineitem", "nation",   "region"};
  return names;
}

int64_t SpecRowCount(const std::string& table, double sf) {
  const auto scaled = [sf](double base) { return std::max<int64_t>(1, std::llround(base * sf)); };
  if (table == "region") return 5;
  if (table == "nation") return 25;
  if (table == "supplier") return scaled(10000);
  if (table == "part") return scaled(200000);
  if (table == "partsupp") return 4 * scaled(200000);
  if (table == "customer") return scaled(150000);
  if (table == "orders") return scaled(1500000);
  return -1;
}

Result<std::map<std::string, int64_t>> GenerateTpch(const DbgenOptions& options) {
  if (!(options.scale_factor > 0) || options.scale_factor > 100000)
    return Status::InvalidArgument("scale factor must be in (0, 100000], got " + std::to_string(options.scale_factor));
  if (options.out_dir.empty()) return Status::InvalidArgument("no output directory");
  std::vector<std::string> tables = options.tables.empty() ? TableNames() : options.tables;
  for (const auto& t : tables) {
    if (std::find(TableNames().begin(), TableNames().end(), t) == TableNames().end())
      return Status::InvalidArgument("unknown TPC-H table '" + t + "'");
  }
  const auto wanted = [&](const char* t) { return std::find(tables.begin(), tables.end(), t) != tables.end(); };
  const Counts n = CountsFor(options.scale_factor);
  const int64_t batch = std::max<int64_t>(1024, options.batch_rows);
  auto fs = io::LocalFileSystem();
  std::map<std::string, int64_t> written;
  const auto run = [&](const char* table, auto&& gen) -> Status {
    TableSink sink(fs, options, table);
    RETURN_NOT_OK(gen(sink));
    RETURN_NOT_OK(sink.Close());
    written[table] = sink.rows();
    return Status::OK();
  };
  if (wanted("region")) RETURN_NOT_OK(run("region", [&](TableSink& s) { return GenRegion(s); }));
  if (wanted("nation")) RETURN_NOT_OK(run("nation", [&](TableSink& s) { return GenNation(s); }));
  if (wanted("supplier")) RETURN_NOT_OK(run("supplier", [&](TableSink& s) { return GenSupplier(n, batch, s); }));
  if (wanted("part")) RETURN_NOT_OK(run("part", [&](TableSink& s) { return GenPart(n, batch, s); }));
  if (wanted("partsupp")) RETURN_NOT_OK(run("partsupp", [&](TableSink& s) { return GenPartSupp(n, batch, s); }));
  if (wanted("customer")) RETURN_NOT_OK(run("customer", [&](TableSink& s) { return GenCustomer(n, batch, s); }));
  if (wanted("orders") || wanted("lineitem")) {
    TableSink orders(fs, options, "orders"), lineitem(fs, options, "lineitem");
    RETURN_NOT_OK(GenOrdersAndLineitem(n, batch, orders, lineitem));
    RETURN_NOT_OK(orders.Close());
    RETURN_NOT_OK(lineitem.Close());
    written["orders"] = orders.rows();
    written["lineitem"] = lineitem.rows();
  }
  return written;
}

}  // namespace shoal::tpch
