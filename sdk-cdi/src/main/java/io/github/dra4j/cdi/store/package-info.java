/**
 * Spec files on disk: atomic writing, removal and orphan clean-up of spec files in a spec
 * directory ({@link io.github.dra4j.cdi.store.SpecDirectory}) with checked file names ({@link
 * io.github.dra4j.cdi.store.SpecFileName}).
 */
package io.github.dra4j.cdi.store;
