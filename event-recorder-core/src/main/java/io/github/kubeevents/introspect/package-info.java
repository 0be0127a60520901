/**
 * Read-only snapshots of a broadcaster's queues, counters and caches, as plain records for JSON.
 */
@NullMarked
package io.github.kubeevents.introspect;

import org.jspecify.annotations.NullMarked;
