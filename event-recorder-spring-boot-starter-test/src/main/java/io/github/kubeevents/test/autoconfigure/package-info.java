/**
 * Test auto-configuration for applications using the kube-events starter: {@link AutoConfigureFakeEventRecorder}
 * replaces the recorder with a {@link io.github.kubeevents.FakeEventRecorder} that writes nowhere.
 */
@NullMarked
package io.github.kubeevents.test.autoconfigure;

import org.jspecify.annotations.NullMarked;
