#include "cli/output_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cli/result_builder.h"

namespace shoal::cli {
namespace {

using columnar::Vector;

std::string Render(const QueryResult& r, OutputFormat f) {
  std::string out;
  WriteResult(r, f, TableLayout{}, [&](std::string_view s) { out.append(s); });
  return out;
}

// One row per kind of value; row 1 holds NULLs.
QueryResult AllTypes() {
  ResultBuilder b;
  b.Int64s("i", {1, std::nullopt});
  b.Strings("s", {std::string("a,b \"q\"\nnext"), std::nullopt});
  b.Column("d", columnar::Decimal(10, 2), [](Vector& v) {
    v.Append<int64_t>(-12345);
    v.AppendNull();
  });
  b.Column("b", columnar::Boolean(), [](Vector& v) {
    v.Append<uint8_t>(1);
    v.AppendNull();
  });
  b.Doubles("f", {1.5, std::nullopt});
  b.Column("day", columnar::Date(), [](Vector& v) {
    v.Append<int32_t>(19000);  // 2022-01-08
    v.AppendNull();
  });
  b.Column("bin", columnar::Binary(), [](Vector& v) {
    v.AppendString(std::string("a\x01", 2));
    v.AppendNull();
  });
  b.Column("l", columnar::List(columnar::Int32()), [](Vector& v) {
    v.child(0)->Append<int32_t>(1);
    v.child(0)->Append<int32_t>(2);
    v.AppendListEnd();
    v.AppendNull();
  });
  b.Column("st", columnar::Struct({{"x", columnar::Int32(), true}, {"y", columnar::String(), true}}),
           [](Vector& v) {
             v.children()[0]->Append<int32_t>(7);
             v.children()[1]->AppendString("é");
             v.AppendStructRow();
             v.AppendNull();
           });
  b.Column("m", columnar::Map(columnar::String(), columnar::Int64()), [](Vector& v) {
    Vector& entries = *v.children()[0];
    entries.children()[0]->AppendString("k");
    entries.children()[1]->Append<int64_t>(5);
    entries.AppendStructRow();
    v.AppendListEnd();
    v.AppendNull();
  });
  return b.Build();
}

TEST(OutputFormat, ParsesEveryFormatNameAndRejectsOthers) {
  for (OutputFormat f : {OutputFormat::kTable, OutputFormat::kCsv, OutputFormat::kJson, OutputFormat::kJsonl}) {
    auto parsed = ParseOutputFormat(OutputFormatName(f));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, f);
  }
  auto bad = ParseOutputFormat("xml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'xml'"), std::string::npos);
}

TEST(OutputFormat, JsonlPrintsOneObjectPerRow) {
  ResultBuilder b;
  b.Int64s("two", {2});
  EXPECT_EQ(Render(b.Build(), OutputFormat::kJsonl), "{\"two\":2}\n");
}

TEST(OutputFormat, JsonlWritesEveryTypeAndNulls) {
  EXPECT_EQ(Render(AllTypes(), OutputFormat::kJsonl),
            "{\"i\":1,\"s\":\"a,b \\\"q\\\"\\nnext\",\"d\":\"-123.45\",\"b\":true,\"f\":1.5,"
            "\"day\":\"2022-01-08\",\"bin\":\"a\\\\x01\",\"l\":[1,2],\"st\":{\"x\":7,\"y\":\"é\"},"
            "\"m\":[{\"key\":\"k\",\"value\":5}]}\n"
            "{\"i\":null,\"s\":null,\"d\":null,\"b\":null,\"f\":null,\"day\":null,\"bin\":null,"
            "\"l\":null,\"st\":null,\"m\":null}\n");
}

TEST(OutputFormat, JsonIsOneArrayOfObjects) {
  ResultBuilder b;
  b.Int64s("a", {1, 2});
  EXPECT_EQ(Render(b.Build(), OutputFormat::kJson), "[{\"a\":1},{\"a\":2}]\n");
}

TEST(OutputFormat, JsonOfNoRowsIsEmptyArrayAndJsonlIsEmpty) {
  ResultBuilder b;
  b.Int64s("a", {});
  EXPECT_EQ(Render(b.Build(), OutputFormat::kJson), "[]\n");
  EXPECT_EQ(Render(b.Build(), OutputFormat::kJsonl), "");
}

TEST(OutputFormat, JsonKeepsDuplicateColumnNamesAndEscapesKeys) {
  ResultBuilder b;
  b.Int64s("a", {1}).Int64s("a", {2}).Int64s("q\"k", {3});
  EXPECT_EQ(Render(b.Build(), OutputFormat::kJsonl), "{\"a\":1,\"a\":2,\"q\\\"k\":3}\n");
}

TEST(OutputFormat, JsonWritesNonFiniteFloatsAsStrings) {
  ResultBuilder b;
  b.Doubles("f", {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                  -std::numeric_limits<double>::infinity()});
  EXPECT_EQ(Render(b.Build(), OutputFormat::kJson),
            "[{\"f\":\"NaN\"},{\"f\":\"Infinity\"},{\"f\":\"-Infinity\"}]\n");
}

TEST(OutputFormat, CsvQuotesPerRfc4180AndLeavesNullEmpty) {
  ResultBuilder b;
  b.Strings("name, quoted", {std::string("plain"), std::string("a,b"), std::string("say \"hi\""),
                             std::string("two\nlines"), std::string("cr\r"), std::string(""), std::nullopt});
  b.Int64s("n", {1, 2, 3, 4, 5, 6, std::nullopt});
  EXPECT_EQ(Render(b.Build(), OutputFormat::kCsv),
            "\"name, quoted\",n\n"
            "plain,1\n"
            "\"a,b\",2\n"
            "\"say \"\"hi\"\"\",3\n"
            "\"two\nlines\",4\n"
            "\"cr\r\",5\n"
            "\"\",6\n"
            ",\n");
}

TEST(OutputFormat, CsvWritesTextFormsOfEveryType) {
  EXPECT_EQ(Render(AllTypes(), OutputFormat::kCsv),
            "i,s,d,b,f,day,bin,l,st,m\n"
            "1,\"a,b \"\"q\"\"\nnext\",-123.45,true,1.5,2022-01-08,a\\x01,\"[1, 2]\",\"{'x': 7, 'y': 'é'}\","
            "{k=5}\n"
            ",,,,,,,,,\n");
}

TEST(OutputFormat, CsvOfNoRowsIsTheHeaderOnly) {
  ResultBuilder b;
  b.Int64s("a", {}).Strings("b", {});
  EXPECT_EQ(Render(b.Build(), OutputFormat::kCsv), "a,b\n");
}

TEST(OutputFormat, ResultWithoutColumnsPrintsNothingInAnyFormat) {
  QueryResult empty = ResultBuilder().Build();
  for (OutputFormat f : {OutputFormat::kTable, OutputFormat::kCsv, OutputFormat::kJson, OutputFormat::kJsonl}) {
    EXPECT_EQ(Render(empty, f), "") << OutputFormatName(f);
  }
}

TEST(OutputFormat, DmlCountsPrintOnlyInTableFormat) {
  ResultBuilder b;
  b.Int64s("count", {3});
  QueryResult base = b.Build();
  QueryResult insert = MakeQueryResult(base.schema(), base.batches(), "INSERT");
  EXPECT_EQ(Render(insert, OutputFormat::kCsv), "");
  EXPECT_EQ(Render(insert, OutputFormat::kJson), "");
  EXPECT_EQ(Render(insert, OutputFormat::kJsonl), "");
  EXPECT_NE(Render(insert, OutputFormat::kTable).find(" 3 │"), std::string::npos);
  QueryResult show = MakeQueryResult(base.schema(), base.batches(), "SHOW TABLES");
  EXPECT_EQ(Render(show, OutputFormat::kJsonl), "{\"count\":3}\n");
  EXPECT_FALSE(PrintsRowsInDataFormats("CREATE TABLE"));
  EXPECT_TRUE(PrintsRowsInDataFormats("SELECT"));
  EXPECT_TRUE(PrintsRowsInDataFormats("OPTIMIZE"));
}

TEST(OutputFormat, LargeResultsArriveInBoundedChunksAcrossBatches) {
  std::vector<std::optional<int64_t>> values;
  std::string expected = "[";
  for (int64_t i = 0; i < 50000; ++i) {
    values.push_back(i);
    expected += (i ? ",{\"v\":" : "{\"v\":") + std::to_string(i) + "}";
  }
  expected += "]\n";
  ResultBuilder b;
  b.Int64s("v", values);
  QueryResult r = b.Build(/*batch_rows=*/777);
  std::string out;
  int chunks = 0;
  size_t biggest = 0;
  WriteJson(r, [&](std::string_view s) {
    ++chunks;
    biggest = std::max(biggest, s.size());
    out.append(s);
  });
  EXPECT_EQ(out, expected);
  EXPECT_GT(chunks, 5);
  EXPECT_LT(biggest, 70000u);
}

}  // namespace
}  // namespace shoal::cli
