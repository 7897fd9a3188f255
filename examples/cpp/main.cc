// Opens a warehouse (argv[1], or a temporary directory), creates a table, inserts, queries, prints.
#include <shoal/database.h>

#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
  auto dir = argc > 1 ? std::filesystem::path(argv[1])
                      : std::filesystem::temp_directory_path() / "shoal_example";
  std::filesystem::remove_all(dir);
  auto db = shoal::Database::Open(dir.string());
  if (!db.ok()) return std::cerr << db.status().ToString() << "\n", 1;
  auto con = (*db)->Connect();
  auto r = con->Query(
      "CREATE TABLE events (id BIGINT, kind STRING, v DOUBLE);"
      "INSERT INTO events VALUES (1, 'click', 0.5), (2, 'view', 1.5), (3, 'click', 2.0);"
      "SELECT kind, count(*) AS n, sum(v) AS total FROM events GROUP BY kind ORDER BY kind");
  if (!r.ok()) return std::cerr << r.status().ToString() << "\n", 1;
  for (int c = 0; c < r->num_columns(); ++c) std::cout << (c ? "\t" : "") << r->column_name(c);
  std::cout << "\n";
  for (int64_t row = 0; row < r->num_rows(); ++row) {
    for (int c = 0; c < r->num_columns(); ++c) std::cout << (c ? "\t" : "") << r->GetText(row, c);
    std::cout << "\n";
  }
  std::cout << shoal::Version() << "\n";
  std::filesystem::remove_all(dir);
}
