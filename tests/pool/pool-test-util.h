/* gst-vmi tests: helpers shared by the pool tests. */
#ifndef __POOL_TEST_UTIL_H__
#define __POOL_TEST_UTIL_H__

#include <glib.h>
#include <poll.h>
#include <signal.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

/* Waits for child @pid to exit (woken by its pidfd, no polling loop), at
 * most @timeout_ms; then kills it. Returns its exit status (128 + signal
 * for a signal), or -1 when it had to be killed. */
static inline gint
pool_test_wait_child (GPid pid, gint timeout_ms)
{
  int fd = pidfd_open (pid, 0), status = 0, rc = -1;
  struct pollfd p = { fd, POLLIN, 0 };

  g_assert (fd >= 0);
  if (poll (&p, 1, timeout_ms) == 1 && waitpid (pid, &status, 0) == pid)
    rc = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
  else {
    kill (pid, SIGKILL);
    waitpid (pid, &status, 0);
  }
  close (fd);
  return rc;
}

#endif
