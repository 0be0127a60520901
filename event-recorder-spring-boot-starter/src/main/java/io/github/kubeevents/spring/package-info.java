/**
 * The recorder's runtime in a Spring application: the lifecycle that starts and stops the broadcaster with the
 * context, and the resolved status of where events go.
 */
@NullMarked
package io.github.kubeevents.spring;

import org.jspecify.annotations.NullMarked;
