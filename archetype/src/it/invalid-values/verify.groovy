// archetype:generate stopped on each invalid value with a message naming the property and the
// value, and left no project behind. Then the post-generation script alone, on more values.
def log = new File(basedir, 'build.log').getText('UTF-8')
[
  'The dra4j driver archetype did not generate Bad_Artifact: driverName="FPGA_Driver.acme.com" is not a DNS subdomain',
  'package="com.acme.int.2fpga" is not a Java package name: "int" is a Java keyword (use "int_"), "2fpga" is not a Java identifier',
  'artifactId="Bad_Artifact" names the Helm chart and its Kubernetes objects',
].each { message ->
  assert log.contains(message) : "missing from build.log: ${message}"
}
assert !new File(basedir, 'Bad_Artifact').exists() : 'Bad_Artifact was left behind'

// The script as archetype:generate runs it, with a request of its own: null when the values
// pass (the project is kept), else the message.
def script = new File(templates, '../META-INF/archetype-post-generate.groovy').getText('UTF-8')
def check = { Map values ->
  def output = new File(basedir, 'direct')
  def project = new File(output, values.artifactId ?: 'x-driver')
  project.mkdirs()
  new File(project, 'mvnw').text = '#!/bin/sh\n'
  def properties = new Properties()
  properties.setProperty('package', values.package ?: 'com.acme.x')
  if (values.driverName != null) {
    properties.setProperty('driverName', values.driverName)
  }
  def request = [properties: properties, outputDirectory: output.path,
                 artifactId: project.name]
  try {
    new GroovyShell(new Binding([request: request])).evaluate(script)
    assert project.isDirectory() && new File(project, 'mvnw').canExecute()
    project.deleteDir()
    return null
  } catch (IllegalArgumentException e) {
    assert !project.exists() : "${project} was left behind"
    return e.message
  }
}
assert check(driverName: 'fpga.acme.com') == null
assert check(driverName: 'x-7.lab-3.team-9.vision-2.example.io') == null // 36 characters
// 63 characters, the most Kubernetes allows: the SDK fits its sockets to any of them
assert check(driverName: 'x-7.accelerator-lab-3.team-9.computer-vision.example-corp.co.uk') == null
assert check(driverName: 'a.b', package: 'io._3d_vision.new_', artifactId: 'a2-b') == null
assert check(driverName: 'x-7.accelerator-lab-3.team-9.computer-vision.example-corp.co.ukk') ==
    'The dra4j driver archetype did not generate x-driver: driverName="x-7.accelerator-lab-3.' +
    'team-9.computer-vision.example-corp.co.ukk" is 64 characters long: a DRA driver name has ' +
    'at most 63'
assert check(driverName: 'fpga').contains('driverName="fpga" has no dot')
assert check(driverName: null).contains('driverName is required')
assert check(driverName: '-fpga.acme.com').contains('is not a DNS subdomain')
assert check(driverName: 'fpga..acme.com').contains('is not a DNS subdomain')
assert check(driverName: 'fpga.acme.com.').contains('is not a DNS subdomain')
assert check(driverName: 'fpga.acme.com', package: 'com..acme').contains('an empty part')
assert check(driverName: 'fpga.acme.com', package: 'com.acme.new').contains('"new" is a Java keyword (use "new_")')
assert check(driverName: 'fpga.acme.com', artifactId: '2fpga').contains('artifactId="2fpga"')
return true
