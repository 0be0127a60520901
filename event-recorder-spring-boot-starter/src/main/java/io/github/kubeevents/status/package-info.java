/**
 * Where the recorder's events go, as resolved once at startup ({@code KubeEventsStatus}: configured mode, effective
 * sink, reason, target), shared by the auto-configuration, the Actuator endpoint and the health indicator. It
 * depends on the core library only, so none of them depends on another for it.
 */
@NullMarked
package io.github.kubeevents.status;

import org.jspecify.annotations.NullMarked;
