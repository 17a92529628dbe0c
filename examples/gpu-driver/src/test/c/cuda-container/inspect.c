/*
 * inspect.c: reports what a test container sees, for the container tests of the GPU driver (the
 * test root file system has no shell and no tools). Statically needs only the C library.
 *
 * Build (the JUnit helper CudaProbeBuild does this):
 *
 *   gcc -o inspect inspect.c
 *
 * Usage: inspect [--env NAME | --ls DIR | --cat FILE | --mount PATH | PATH]... [-- COMMAND ARG...]
 *
 * One line per request, in order, then (after "--") it runs COMMAND in its own place (execv),
 * so its output follows:
 *
 *   env NAME=VALUE                 or  env NAME unset
 *   ls DIR NAME NAME ...           the entries but . and .., sorted; or  ls DIR missing
 *   cat FILE TEXT                  the file's first line;            or  cat FILE missing
 *   mount PATH OPTIONS             the per-mount options of the last mount on PATH (from
 *                                  /proc/self/mountinfo);            or  mount PATH none
 *   stat PATH char MAJOR:MINOR | block MAJOR:MINOR | dir | file SIZE | symlink TARGET | socket
 *                                  | fifo | missing              (lstat: links are not followed)
 *
 * Exit 0, or 126 if COMMAND cannot be run (the reason on stderr).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *) a, *(char *const *) b);
}

static void list(const char *dir) {
  struct dirent **entries;
  int count = scandir(dir, &entries, NULL, NULL);
  if (count < 0) {
    printf("ls %s missing\n", dir);
    return;
  }
  char **names = calloc((size_t) count + 1, sizeof *names);
  int kept = 0;
  for (int i = 0; i < count; i++) {
    if (strcmp(entries[i]->d_name, ".") != 0 && strcmp(entries[i]->d_name, "..") != 0) {
      names[kept++] = entries[i]->d_name;
    }
  }
  qsort(names, (size_t) kept, sizeof *names, compare_names);
  printf("ls %s", dir);
  for (int i = 0; i < kept; i++) {
    printf(" %s", names[i]);
  }
  printf("\n");
  for (int i = 0; i < count; i++) {
    free(entries[i]);
  }
  free(entries);
  free(names);
}

static void first_line(const char *path) {
  FILE *file = fopen(path, "r");
  char line[512];
  if (file == NULL) {
    printf("cat %s missing\n", path);
    return;
  }
  if (fgets(line, sizeof line, file) == NULL) {
    line[0] = '\0';
  }
  fclose(file);
  line[strcspn(line, "\n")] = '\0';
  printf("cat %s %s\n", path, line);
}

static void mount_options(const char *path) {
  FILE *info = fopen("/proc/self/mountinfo", "r");
  char line[4096];
  char found[512] = "";
  if (info != NULL) {
    while (fgets(line, sizeof line, info) != NULL) {
      char point[1024];
      char options[512];
      /* id parent major:minor root mount-point options ... */
      if (sscanf(line, "%*s %*s %*s %*s %1023s %511s", point, options) == 2
          && strcmp(point, path) == 0) {
        snprintf(found, sizeof found, "%s", options);
      }
    }
    fclose(info);
  }
  printf("mount %s %s\n", path, found[0] != '\0' ? found : "none");
}

static void describe(const char *path) {
  struct stat st;
  char target[1024];
  if (lstat(path, &st) != 0) {
    printf("stat %s missing\n", path);
  } else if (S_ISCHR(st.st_mode)) {
    printf("stat %s char %u:%u\n", path, major(st.st_rdev), minor(st.st_rdev));
  } else if (S_ISBLK(st.st_mode)) {
    printf("stat %s block %u:%u\n", path, major(st.st_rdev), minor(st.st_rdev));
  } else if (S_ISDIR(st.st_mode)) {
    printf("stat %s dir\n", path);
  } else if (S_ISREG(st.st_mode)) {
    printf("stat %s file %lld\n", path, (long long) st.st_size);
  } else if (S_ISLNK(st.st_mode)) {
    ssize_t length = readlink(path, target, sizeof target - 1);
    target[length < 0 ? 0 : length] = '\0';
    printf("stat %s symlink %s\n", path, target);
  } else if (S_ISSOCK(st.st_mode)) {
    printf("stat %s socket\n", path);
  } else {
    printf("stat %s fifo\n", path);
  }
}

int main(int argc, char **argv) {
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (i + 1 < argc && strcmp(argv[i], "--env") == 0) {
      const char *value = getenv(argv[++i]);
      if (value == NULL) {
        printf("env %s unset\n", argv[i]);
      } else {
        printf("env %s=%s\n", argv[i], value);
      }
    } else if (i + 1 < argc && strcmp(argv[i], "--ls") == 0) {
      list(argv[++i]);
    } else if (i + 1 < argc && strcmp(argv[i], "--cat") == 0) {
      first_line(argv[++i]);
    } else if (i + 1 < argc && strcmp(argv[i], "--mount") == 0) {
      mount_options(argv[++i]);
    } else {
      describe(argv[i]);
    }
  }
  fflush(stdout);
  if (i + 1 < argc) {
    execv(argv[i + 1], argv + i + 1);
    perror(argv[i + 1]);
    return 126;
  }
  return 0;
}
