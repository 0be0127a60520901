/**
 * Testcontainers support: {@code @ServiceConnection} on a {@code K3sContainer} makes the recorder write into it.
 * Used only when {@code spring-boot-testcontainers} and {@code org.testcontainers:testcontainers-k3s} are on the
 * classpath (both optional dependencies of the starter).
 */
@NullMarked
package io.github.kubeevents.testcontainers;

import org.jspecify.annotations.NullMarked;
