/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.metrics;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.ReflectionException;

/** A {@link GaugeSet} as a read-only MBean: one {@code long} attribute per gauge. */
final class GaugeMBean implements DynamicMBean {
  private final String description;
  private final GaugeSet gauges;
  private final MBeanInfo info;

  GaugeMBean(String description, GaugeSet gauges) {
    this.description = description;
    this.gauges = gauges;
    this.info = info();
  }

  private MBeanInfo info() {
    MBeanAttributeInfo[] attributes =
        gauges.gauges().stream()
            .map(g -> new MBeanAttributeInfo(g.name(), "long", g.description(), true, false, false))
            .toArray(MBeanAttributeInfo[]::new);
    return new MBeanInfo(GaugeMBean.class.getName(), description, attributes, null, null, null);
  }

  @Override
  public Object getAttribute(String attribute) throws AttributeNotFoundException {
    GaugeSet.Gauge gauge = gauges.get(attribute);
    if (gauge == null) {
      throw new AttributeNotFoundException(attribute);
    }
    return gauge.value().getAsLong();
  }

  @Override
  public AttributeList getAttributes(String[] attributes) {
    AttributeList list = new AttributeList();
    for (String name : attributes) {
      GaugeSet.Gauge gauge = gauges.get(name);
      if (gauge != null) {
        list.add(new Attribute(name, gauge.value().getAsLong()));
      }
    }
    return list;
  }

  @Override
  public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
    throw new AttributeNotFoundException(attribute.getName() + " is read-only");
  }

  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  @Override
  public Object invoke(String actionName, Object[] params, String[] signature)
      throws ReflectionException {
    throw new ReflectionException(
        new NoSuchMethodException(actionName), "Floe metrics have no operations");
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    return info;
  }
}
