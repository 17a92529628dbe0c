/**
 * The demo: a simulated GPU driver ({@link io.github.dra4j.cli.demo.SimulatedGpuDriver}) taken
 * through publishing, allocation, prepare, CDI resolution and unprepare on a simulated node,
 * printing each step ({@link io.github.dra4j.cli.demo.Demo}).
 */
package io.github.dra4j.cli.demo;
