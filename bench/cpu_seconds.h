// CpuSeconds: the process's CPU time so far (user + system, all threads), for the bench drivers
// that print CPU time beside wall time (the machine is often shared, so wall time alone misleads).
#pragma once

#include <sys/resource.h>

inline double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}
