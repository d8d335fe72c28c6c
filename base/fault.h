/* Surviving one kind of fault: a load from a shared file mapping whose
 * owner truncated the file under it (the kernel sends SIGBUS). Such loads
 * run inside gt_fault_guarded, which reports the fault instead of dying.
 *
 * One SIGBUS handler serves the whole process, installed once: a handler
 * put in place and taken away around each read cost two system calls a
 * read (a poll every millisecond while a JVM collects that fast), and two
 * threads reading at once could restore each other's handler in the wrong
 * order and leave a read unguarded. A SIGBUS outside a guard goes to the
 * crash function the screen registers (which restores the terminal), then
 * kills the process as before. */
#ifndef GCTOP_BASE_FAULT_H
#define GCTOP_BASE_FAULT_H

/* Runs fn(arg); returns 0, or -1 when it touched a page that is gone (the
 * rest of fn was skipped). fn must not take locks or allocate: the jump
 * back leaves them as they were at the fault. Not nested on one thread. */
int gt_fault_guarded(void (*fn)(void *), void *arg);

/* What a SIGBUS outside any guard calls before the process dies of it
 * (NULL: nothing). crash must end in the default action (it may re-raise). */
void gt_fault_on_crash(void (*crash)(int));

#endif
